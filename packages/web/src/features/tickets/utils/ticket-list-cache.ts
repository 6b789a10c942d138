import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import type { TicketPage } from "../api/get-tickets";
import { type TicketListParams, ticketKeys } from "../api/ticket-keys";

/**
 * Spec §4 "Ticket list filtering by events": a ticket belongs in a live list when it has
 * no user, is the viewer's own, or showAll is on; and its queue is among the selected ones.
 * A search list is never grown by events (the server decides what a search matches).
 */
export function belongsInList(ticket: Ticket, params: TicketListParams, userId: number): boolean {
  if (params.searchParam || ticket.status !== params.status) return false;
  if (!(ticket.userId === null || ticket.userId === userId || params.showAll)) return false;
  return !params.queueIds.length || ticket.queueId === null || params.queueIds.includes(ticket.queueId);
}

type Lists = InfiniteData<TicketPage>;

function eachList(client: QueryClient, update: (data: Lists, params: TicketListParams) => Lists) {
  for (const [key, data] of client.getQueriesData<Lists>({ queryKey: ticketKeys.lists() })) {
    if (!data?.pages?.length) continue;
    client.setQueryData(key, update(data, key[2] as TicketListParams));
  }
}

const contains = (data: Lists, id: number) => data.pages.some((page) => page.tickets.some((t) => t.id === id));

function withCount(data: Lists, pages: TicketPage[], delta: number): Lists {
  const [first, ...rest] = pages;
  return { ...data, pages: [{ ...first, count: Math.max(0, first.count + delta) }, ...rest] };
}

/** A changed ticket moves to the top of the lists it belongs in and leaves the others. */
export function upsertTicket(client: QueryClient, ticket: Ticket, userId: number): void {
  eachList(client, (data, params) => {
    const present = contains(data, ticket.id);
    if (params.searchParam) {
      if (!present) return data;
      const pages = data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => (t.id === ticket.id ? ticket : t)) }));
      return { ...data, pages };
    }
    const pages = data.pages.map((p) => ({ ...p, tickets: p.tickets.filter((t) => t.id !== ticket.id) }));
    if (belongsInList(ticket, params, userId)) {
      pages[0] = { ...pages[0], tickets: [ticket, ...pages[0].tickets] };
      return withCount(data, pages, present ? 0 : 1);
    }
    return present ? withCount(data, pages, -1) : data;
  });
  client.setQueryData<Ticket>(ticketKeys.detail(ticket.id), (old) =>
    old ? { ...old, ...ticket, contact: { ...old.contact, ...ticket.contact } } : old,
  );
}

export function removeTicket(client: QueryClient, ticketId: number): void {
  eachList(client, (data) => {
    if (!contains(data, ticketId)) return data;
    const pages = data.pages.map((p) => ({ ...p, tickets: p.tickets.filter((t) => t.id !== ticketId) }));
    return withCount(data, pages, -1);
  });
}

export function markTicketRead(client: QueryClient, ticketId: number): void {
  eachList(client, (data) =>
    contains(data, ticketId)
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            tickets: p.tickets.map((t) => (t.id === ticketId ? { ...t, unreadMessages: 0 } : t)),
          })),
        }
      : data,
  );
}
