import { useQueryClient } from "@tanstack/react-query";
import type { RealtimePayloads } from "@zapdesk/core";
import { useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { playChime, showBrowserNotification } from "../utils/alert";
import { shouldNotify } from "../utils/should-notify";
import { dropUnread, raiseUnread, refreshUnread } from "../utils/unread-cache";

/**
 * `ticket` and `appMessage` events for the bell: its list follows the unread tickets and a
 * browser notification with a chime goes out for the messages spec §6 allows.
 */
export function useNotificationHandlers(options: { openTicketId?: number; onOpenTicket(id: number): void }) {
  const client = useQueryClient();
  const { t } = useTranslation();
  const { user } = useAuth();
  const latest = useRef(options);
  latest.current = options;
  const userId = user?.id ?? 0;

  return useMemo(
    () => ({
      ticket(event: RealtimePayloads["ticket"]) {
        if (event.action === "update") {
          const { ticket } = event;
          const stillMine = ticket.unreadMessages > 0 && (ticket.userId === null || ticket.userId === userId);
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
          openTicketId: latest.current.openTicketId,
          pageVisible: document.visibilityState === "visible",
        };
        if (!shouldNotify(message, ticket, context)) return;
        raiseUnread(client, ticket);
        showBrowserNotification(
          t("notifications.newMessage", { name: ticket.contact.name }),
          message.body,
          String(ticket.id),
          () => latest.current.onOpenTicket(ticket.id),
        );
        playChime();
      },
    }),
    [client, t, userId],
  );
}
