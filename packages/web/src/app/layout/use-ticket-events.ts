import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
// The hook alone, not the feature's barrel: the composer and message list stay in the lazy tickets chunk.
import { useConversationRealtimeHandlers } from "../../features/conversation/hooks/use-conversation-realtime-handlers";
import { useMentionHandler, useNotificationHandlers, useReadMentionsOnOpen } from "../../features/notifications";
import { TICKET_DELETED_TOAST, ticketKeys, updateTicketMutationKey, useTicketRealtimeHandlers } from "../../features/tickets";
import type { TicketEventHandlers } from "../../lib/realtime-sync";
import { toast } from "../../lib/toast";

/** Composes what each feature does with `ticket` and `appMessage` events (features never import each other). */
export function useTicketEvents(): TicketEventHandlers {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const openTicketId = Number(/^\/tickets\/(\d+)/.exec(pathname)?.[1]) || undefined;
  const tickets = useTicketRealtimeHandlers();
  const conversation = useConversationRealtimeHandlers();
  const onOpenTicket = useCallback((id: number) => navigate(`/tickets/${id}`), [navigate]);
  const onOpenConnections = useCallback(() => navigate("/connections"), [navigate]);
  const notifications = useNotificationHandlers({ openTicketId, onOpenTicket, onOpenConnections });
  const noteMention = useMentionHandler(navigate);
  useReadMentionsOnOpen(openTicketId);

  return useMemo(
    () => ({
      ticket(event) {
        tickets.ticket(event);
        notifications.ticket(event);
        // Spec §4: the ticket in view was deleted: say so and go back to the list. One moved out of
        // reach stays in view, its chat saying it moved (the tickets feature marks it).
        // Our own transfer out of reach also arrives as a delete: that one navigates by itself.
        const ownChange = client.isMutating({ mutationKey: updateTicketMutationKey }) > 0;
        const deleted = event.action === "delete" && event.reason !== "moved";
        if (deleted && event.ticketId === openTicketId && !ownChange) {
          toast.success(t("tickets.deleted"), TICKET_DELETED_TOAST);
          navigate("/tickets");
        }
      },
      appMessage(event) {
        tickets.appMessage(event);
        conversation.appMessage(event);
        notifications.appMessage(event);
        // A customer message in the ticket being read: reading the ticket again marks it read on the server.
        const inView = event.action === "create" && event.ticket.id === openTicketId && !event.message.fromMe;
        if (inView && document.visibilityState === "visible") {
          client.invalidateQueries({ queryKey: ticketKeys.detail(event.ticket.id) });
        }
      },
      messagesRemoved(event) {
        tickets.messagesRemoved(event);
        conversation.messagesRemoved(event);
      },
      noteMention,
      ticketAssigned: notifications.ticketAssigned,
      connectionRestricted: notifications.connectionRestricted,
    }),
    [tickets, conversation, notifications, noteMention, openTicketId, navigate, t, client],
  );
}
