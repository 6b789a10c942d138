import { useQueryClient } from "@tanstack/react-query";
import { isAdmin, type RealtimePayloads, type Ticket } from "@zapdesk/core";
import { useMemo } from "react";
import { useAuth } from "../../../lib/auth";
import { ticketKeys } from "../api/ticket-keys";
import { updateTicketMutationKey } from "../api/update-ticket";
import {
  clearPreview,
  markMovedAway,
  markTicketRead,
  movedAwayFrom,
  removeTicket,
  upsertTicket,
} from "../utils/ticket-list-cache";

/** Cache updates for `ticket` and `appMessage` events: the lists and the open ticket follow the server. */
export function useTicketRealtimeHandlers() {
  const client = useQueryClient();
  const { user } = useAuth();
  const userId = user?.id ?? 0;
  const admin = isAdmin(user);
  return useMemo(() => {
    const viewer = { id: userId, admin };
    return {
      ticket(event: RealtimePayloads["ticket"]) {
        // This user's own transfer says nothing to them: they chose it and leave the ticket.
        const ownChange = client.isMutating({ mutationKey: updateTicketMutationKey }) > 0;
        if (event.action === "update") {
          const before = client.getQueryData<Ticket>(ticketKeys.detail(event.ticket.id));
          if (!ownChange && movedAwayFrom(before, event.ticket, userId)) markMovedAway(client, event.ticket.id);
          upsertTicket(client, event.ticket, viewer);
        } else if (event.action === "updateUnread") markTicketRead(client, event.ticketId);
        else {
          // Moved out of reach: a chat that shows it says so instead of going blank.
          const shown = client.getQueryData(ticketKeys.detail(event.ticketId)) !== undefined;
          if (event.reason === "moved" && shown && !ownChange) markMovedAway(client, event.ticketId);
          removeTicket(client, event.ticketId);
        }
      },
      appMessage(event: RealtimePayloads["appMessage"]) {
        if (event.action === "create") upsertTicket(client, event.ticket, viewer);
      },
      /** Issue 22 §1: a retention sweep removed the ticket's messages: the preview goes too. */
      messagesRemoved(event: RealtimePayloads["messagesRemoved"]) {
        if (event.removed === "messages") clearPreview(client, event.ticketId);
      },
    };
  }, [client, userId, admin]);
}
