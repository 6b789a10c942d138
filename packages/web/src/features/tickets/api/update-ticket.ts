import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ticket, TicketUpdateInput } from "@zapdesk/core";
import { useNavigate } from "react-router";
import { api } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { requestInbox } from "../hooks/use-inbox-requests";
import { listViewer, upsertTicket } from "../utils/ticket-list-cache";
import { useGoToNextTicket } from "./next-ticket";
import { ticketKeys } from "./ticket-keys";

/** Marks this user's own ticket changes, so their echo over the socket is not taken for someone else's. */
export const updateTicketMutationKey = [...ticketKeys.all, "update"] as const;

export const updateTicket = (id: number, change: TicketUpdateInput) => api.put<Ticket>(`/tickets/${id}`, change);

/** Where a change leads (spec §4): the ticket when it is now open, else the list; a transfer always to the list. */
export const pathAfterChange = (ticket: Ticket, transfer = false) =>
  ticket.status === "open" && !transfer ? `/tickets/${ticket.id}` : "/tickets";

export function useUpdateTicket() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { user } = useAuth();
  const goToNext = useGoToNextTicket();
  return useMutation({
    mutationKey: updateTicketMutationKey,
    mutationFn: ({ id, change }: { id: number; change: TicketUpdateInput; transfer?: boolean }) => updateTicket(id, change),
    onSuccess: (ticket, { transfer }) => {
      if (user) upsertTicket(client, ticket, listViewer(user));
      const path = pathAfterChange(ticket, transfer);
      // Issue 13: out of my hands (resolved, returned, transferred): on to the next ticket.
      if (path === "/tickets") return void goToNext(ticket.id);
      // Accepted (or reopened): the list shows Working on, where the ticket now is.
      if (ticket.userId === user?.id) requestInbox("working");
      navigate(path);
    },
  });
}

/** The four status moves of spec §4, as the payloads the server's transition table accepts. */
export const ticketChanges = {
  accept: (userId: number): TicketUpdateInput => ({ status: "open", userId }),
  reopen: (userId: number): TicketUpdateInput => ({ status: "open", userId }),
  resolve: (userId: number): TicketUpdateInput => ({ status: "closed", userId }),
  return: (): TicketUpdateInput => ({ status: "pending", userId: null }),
};

/** Transfer (spec §4): a user only sends userId; a queue only sends pending + no user + queue. */
export function transferChange(userId: number | null, queueId: number | null): TicketUpdateInput {
  if (userId && queueId) return { userId, queueId };
  if (userId) return { userId };
  return { status: "pending", userId: null, queueId };
}
