import { useQueryClient } from "@tanstack/react-query";
import type { RealtimePayloads } from "@zapdesk/core";
import { useMemo } from "react";
import { useAuth } from "../../../lib/auth";
import { markTicketRead, removeTicket, upsertTicket } from "../utils/ticket-list-cache";

/** Cache updates for `ticket` and `appMessage` events: the lists and the open ticket follow the server. */
export function useTicketRealtimeHandlers() {
  const client = useQueryClient();
  const { user } = useAuth();
  const userId = user?.id ?? 0;
  return useMemo(
    () => ({
      ticket(event: RealtimePayloads["ticket"]) {
        if (event.action === "update") upsertTicket(client, event.ticket, userId);
        else if (event.action === "updateUnread") markTicketRead(client, event.ticketId);
        else removeTicket(client, event.ticketId);
      },
      appMessage(event: RealtimePayloads["appMessage"]) {
        if (event.action === "create") upsertTicket(client, event.ticket, userId);
      },
    }),
    [client, userId],
  );
}
