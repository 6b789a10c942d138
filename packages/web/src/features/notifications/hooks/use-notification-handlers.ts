import { useQueryClient } from "@tanstack/react-query";
import { hiddenWhileBotHolds, isAdmin, type RealtimePayloads } from "@zapdesk/core";
import { useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { toast } from "../../../lib/toast";
import { messagePreview, ticketPreview } from "../../tickets/utils/ticket-preview";
import { preferenceKeys, preferencesOrDefault } from "../api/preferences";
import { playChime, showBrowserNotification } from "../utils/alert";
import { shouldNotify } from "../utils/should-notify";
import { dropUnread, raiseUnread, refreshUnread } from "../utils/unread-cache";

/**
 * `ticket` and `appMessage` events for the bell: its list follows the unread tickets and a
 * browser notification with a chime goes out for the messages spec §6 allows.
 */
export function useNotificationHandlers(options: {
  openTicketId?: number;
  onOpenTicket(id: number): void;
  /** Where a connection alert leads (the Connections screen). */
  onOpenConnections?(): void;
}) {
  const client = useQueryClient();
  const { t } = useTranslation();
  const { user } = useAuth();
  const latest = useRef(options);
  latest.current = options;
  const userId = user?.id ?? 0;
  const admin = isAdmin(user);

  return useMemo(
    () => ({
      ticket(event: RealtimePayloads["ticket"]) {
        if (event.action === "update") {
          const { ticket } = event;
          // The bell's list is the server's list without a status: an agent's leaves a bot's tickets out.
          const stillMine =
            ticket.unreadMessages > 0 &&
            (ticket.userId === null || ticket.userId === userId) &&
            !hiddenWhileBotHolds(ticket, { admin }, {});
          if (stillMine) refreshUnread(client, ticket);
          else dropUnread(client, ticket.id);
          return;
        }
        dropUnread(client, event.ticketId);
      },
      appMessage(event: RealtimePayloads["appMessage"]) {
        if (event.action !== "create") return;
        const { message, ticket } = event;
        const context = {
          userId,
          admin,
          openTicketId: latest.current.openTicketId,
          pageVisible: document.visibilityState === "visible",
        };
        if (!shouldNotify(message, ticket, context)) return;
        raiseUnread(client, ticket);
        // The user's choices (issue 13): the chime and the browser notification each have a switch.
        const prefs = preferencesOrDefault(client.getQueryData(preferenceKeys.mine));
        if (prefs.desktop) {
          // The same tag as the push notification of this ticket: the two collapse into one.
          showBrowserNotification(
            t("notifications.newMessage", { name: ticket.contact.name }),
            messagePreview(message, t),
            `ticket-${ticket.id}`,
            () => latest.current.onOpenTicket(ticket.id),
          );
        }
        if (prefs.sound) playChime();
      },
      /** Issue 13: automatic assignment gave this user a ticket: the chime and a notification say so. */
      ticketAssigned(event: RealtimePayloads["ticketAssigned"]) {
        if (event.userId !== userId) return;
        const { ticket } = event;
        const prefs = preferencesOrDefault(client.getQueryData(preferenceKeys.mine));
        if (prefs.desktop) {
          showBrowserNotification(
            t("notifications.assigned", { name: ticket.contact.name }),
            ticketPreview(ticket.lastMessage, t),
            `ticket-${ticket.id}`,
            () => latest.current.onOpenTicket(ticket.id),
          );
        }
        if (prefs.sound) playChime();
      },
      /** WhatsApp restricted a connection's number (admins only): a toast, the chime, a notification leading to Connections. */
      connectionRestricted(event: RealtimePayloads["connectionRestricted"]) {
        const { whatsapp } = event;
        const title = t("notifications.connectionRestricted.title", { name: whatsapp.name });
        toast.warning(title, `connection-restricted-${whatsapp.id}`);
        const prefs = preferencesOrDefault(client.getQueryData(preferenceKeys.mine));
        if (prefs.desktop) {
          showBrowserNotification(title, t("notifications.connectionRestricted.body"), `connection-${whatsapp.id}`, () =>
            latest.current.onOpenConnections?.(),
          );
        }
        if (prefs.sound) playChime();
      },
    }),
    [client, t, userId, admin],
  );
}
