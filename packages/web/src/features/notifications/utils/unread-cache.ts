import type { QueryClient } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import { updateQueries } from "../../../lib/query-updates";
import { notificationKeys, type UnreadTickets } from "../api/get-unread-tickets";

const key = notificationKeys.unread;

/**
 * Applies a change to the bell's list and moves its count by as much as the list grew or shrank.
 * A ticket not among the loaded ones while more exist beyond the first page may or may not be
 * counted already: only the server can tell, so the bell asks again.
 */
function update(client: QueryClient, id: number, change: (tickets: Ticket[], present: boolean) => Ticket[]): void {
  // Applied again to the answer of a fetch under way (lib/query-updates.ts).
  updateQueries<UnreadTickets>(client, { queryKey: key, exact: true }, (data) => {
    const present = data.tickets.some((t) => t.id === id);
    if (!present && data.count > data.tickets.length) {
      void client.invalidateQueries({ queryKey: key });
      return data;
    }
    const tickets = change(data.tickets, present);
    return { tickets, count: Math.max(0, data.count + tickets.length - data.tickets.length) };
  });
}

const without = (tickets: Ticket[], id: number) => tickets.filter((t) => t.id !== id);

/** The ticket has nothing unread for this user any more (read, taken by someone else, gone). */
export function dropUnread(client: QueryClient, ticketId: number): void {
  update(client, ticketId, (tickets) => without(tickets, ticketId));
}

/** A new unread message: the ticket goes to the top of the bell. */
export function raiseUnread(client: QueryClient, ticket: Ticket): void {
  update(client, ticket.id, (tickets) => [ticket, ...without(tickets, ticket.id)]);
}

/** A ticket in the bell changed (contact, preview, unread count): replace it where it is. */
export function refreshUnread(client: QueryClient, ticket: Ticket): void {
  updateQueries<UnreadTickets>(client, { queryKey: key, exact: true }, (data) =>
    data.tickets.some((t) => t.id === ticket.id)
      ? { ...data, tickets: data.tickets.map((t) => (t.id === ticket.id ? ticket : t)) }
      : data,
  );
}
