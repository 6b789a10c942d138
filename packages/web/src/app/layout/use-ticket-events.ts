import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { useConversationRealtimeHandlers } from "../../features/conversation";
import { useNotificationHandlers } from "../../features/notifications";
import { useTicketRealtimeHandlers } from "../../features/tickets";
import type { TicketEventHandlers } from "../../lib/realtime-sync";
import { toast } from "../../lib/toast";

/** Composes what each feature does with `ticket` and `appMessage` events (features never import each other). */
export function useTicketEvents(): TicketEventHandlers {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const openTicketId = Number(/^\/tickets\/(\d+)/.exec(pathname)?.[1]) || undefined;
  const tickets = useTicketRealtimeHandlers();
  const conversation = useConversationRealtimeHandlers();
  const onOpenTicket = useCallback((id: number) => navigate(`/tickets/${id}`), [navigate]);
  const notifications = useNotificationHandlers({ openTicketId, onOpenTicket });

  return useMemo(
    () => ({
      ticket(event) {
        tickets.ticket(event);
        notifications.ticket(event);
        // Spec §4: the ticket in view was deleted (or moved out of reach): say so and go back to the list.
        if (event.action === "delete" && event.ticketId === openTicketId) {
          toast.success(t("tickets.deleted"));
          navigate("/tickets");
        }
      },
      appMessage(event) {
        tickets.appMessage(event);
        conversation.appMessage(event);
        notifications.appMessage(event);
      },
    }),
    [tickets, conversation, notifications, openTicketId, navigate, t],
  );
}
