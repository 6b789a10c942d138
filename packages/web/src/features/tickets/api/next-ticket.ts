import type { Ticket } from "@zapdesk/core";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { api } from "../../../lib/api-client";
import { requestInbox } from "../hooks/use-inbox-requests";

/** Issue 13: the ticket to handle after `after` — the oldest waiting one of my queues, else my next open one. */
export const getNextTicket = (after?: number) => api.get<{ ticket: Ticket | null }>("/tickets/next", { after });

/** "All caught up" lands on the list (the same address as before) with this state: the empty pane says so. */
export const CAUGHT_UP_STATE = { caughtUp: true };

/**
 * After Resolve, Return, Transfer or Protocolo: open the next ticket (and show the list it is in),
 * or the empty pane with "All caught up". A failed lookup falls back to the list, as before.
 */
export function useGoToNextTicket() {
  const navigate = useNavigate();
  return useCallback(
    async (after: number) => {
      try {
        const { ticket } = await getNextTicket(after);
        if (!ticket) return navigate("/tickets", { state: CAUGHT_UP_STATE });
        requestInbox(ticket.status === "pending" ? "waiting" : "working");
        navigate(`/tickets/${ticket.id}`);
      } catch {
        navigate("/tickets");
      }
    },
    [navigate],
  );
}
