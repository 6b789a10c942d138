import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { hiddenWhileBotHolds, isAdmin, type Ticket } from "@zapdesk/core";
import { updateQueries } from "../../../lib/query-updates";
import type { TicketPage } from "../api/get-tickets";
import { type TicketListParams, ticketKeys } from "../api/ticket-keys";

/** Who looks at the lists: their id, and whether they are an admin (who sees the tickets a bot holds). */
export interface ListViewer {
  id: number;
  admin: boolean;
}

export const listViewer = (user: { id: number; profile: string }): ListViewer => ({ id: user.id, admin: isAdmin(user) });

/**
 * Spec §4 "Ticket list filtering by events": a ticket belongs in a live list when it has
 * no user, is the viewer's own, or showAll is on; and its queue is among the selected ones.
 * The viewer's own tickets pass the queue filter whatever their queue; nothing ticked leaves
 * only those (as on the server, issue 12 items 16 and 20).
 * A search list is never grown by events (the server decides what a search matches).
 * Issue 23 §4: a ticket a queue's bot holds stays out of an agent's waiting list until the bot hands
 * over (core's `hiddenWhileBotHolds`, the rule the server's list query follows too).
 */
export function belongsInList(ticket: Ticket, params: TicketListParams, viewer: ListViewer): boolean {
  const userId = viewer.id;
  if (params.searchParam || ticket.status !== params.status) return false;
  if (hiddenWhileBotHolds(ticket, viewer, { status: params.status, search: params.searchParam })) return false;
  if (params.tagIds?.length && !ticket.tags.some((tag) => params.tagIds?.includes(tag.id))) return false;
  // Issue 23 §5: "my customers"; an owner not known (a batch of inbound messages leaves it out) is not the user.
  if (params.myCustomers && ticket.contact.ownerId !== userId) return false;
  if (ticket.userId === userId) return true;
  if (!(ticket.userId === null || params.showAll)) return false;
  const { queueIds } = params;
  if (queueIds === null) return true;
  return queueIds.length > 0 && (ticket.queueId === null || queueIds.includes(ticket.queueId));
}

/**
 * The ticket was this user's and an update gives it to someone else (a transfer, an admin's
 * assignment, a return to the queue): its chat must stop taking messages. Closing is not a move.
 */
export function movedAwayFrom(before: Ticket | undefined, after: Ticket, userId: number): boolean {
  return before?.userId === userId && after.userId !== userId && after.status !== "closed";
}

/** The ticket left this user's hands: its chat says so and closes the composer (issue 12, item 21). */
export function markMovedAway(client: QueryClient, ticketId: number): void {
  client.setQueryData(ticketKeys.movedAway(ticketId), true);
}

type Lists = InfiniteData<TicketPage>;

/** Every cached ticket list, now and as a fetch under way lands (lib/query-updates.ts). */
function eachList(client: QueryClient, update: (data: Lists, params: TicketListParams) => Lists) {
  updateQueries<Lists>(client, { queryKey: ticketKeys.lists() }, (data, key) =>
    data.pages?.length ? update(data, key[2] as TicketListParams) : data,
  );
}

const contains = (data: Lists, id: number) => data.pages.some((page) => page.tickets.some((t) => t.id === id));

function withCount(data: Lists, pages: TicketPage[], delta: number): Lists {
  const [first, ...rest] = pages;
  return { ...data, pages: [{ ...first, count: Math.max(0, first.count + delta) }, ...rest] };
}

/** The ticket with its contact's owner from a cached copy when the event left it out (issue 23 §5). */
function withKnownOwner(client: QueryClient, ticket: Ticket): Ticket {
  if (ticket.contact.ownerId !== undefined) return ticket;
  for (const [, data] of client.getQueriesData<Lists>({ queryKey: ticketKeys.lists() })) {
    const old = data?.pages?.flatMap((p) => p.tickets).find((t) => t.id === ticket.id && t.contact.ownerId !== undefined);
    if (old) return { ...ticket, contact: { ...ticket.contact, ownerId: old.contact.ownerId } };
  }
  return ticket;
}

/** A changed ticket moves to the top of the lists it belongs in and leaves the others. */
export function upsertTicket(client: QueryClient, changed: Ticket, viewer: ListViewer): void {
  const userId = viewer.id;
  const ticket = withKnownOwner(client, changed);
  eachList(client, (data, params) => {
    const present = contains(data, ticket.id);
    if (params.searchParam) {
      if (!present) return data;
      const pages = data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => (t.id === ticket.id ? ticket : t)) }));
      return { ...data, pages };
    }
    if (params.sort === "oldest" && present && belongsInList(ticket, params, viewer)) {
      // Oldest first (issue 13) is by when the wait began, which a change doesn't move: it stays in place.
      const pages = data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => (t.id === ticket.id ? ticket : t)) }));
      return { ...data, pages };
    }
    const pages = data.pages.map((p) => ({ ...p, tickets: p.tickets.filter((t) => t.id !== ticket.id) }));
    if (belongsInList(ticket, params, viewer)) {
      // Oldest first: a ticket that just started waiting is the newest, last once the list is all loaded.
      const last = pages.length - 1;
      if (params.sort !== "oldest") pages[0] = { ...pages[0], tickets: [ticket, ...pages[0].tickets] };
      else if (!pages[last].hasMore) pages[last] = { ...pages[last], tickets: [...pages[last].tickets, ticket] };
      return withCount(data, pages, present ? 0 : 1);
    }
    return present ? withCount(data, pages, -1) : data;
  });
  // Back in this user's hands: the chat takes messages again.
  if (ticket.userId === userId && client.getQueryData(ticketKeys.movedAway(ticket.id))) {
    client.setQueryData(ticketKeys.movedAway(ticket.id), false);
  }
  updateQueries<Ticket>(client, { queryKey: ticketKeys.detail(ticket.id), exact: true }, (old) => ({
    ...old,
    ...ticket,
    contact: { ...old.contact, ...ticket.contact },
  }));
}

export function removeTicket(client: QueryClient, ticketId: number): void {
  eachList(client, (data) => {
    if (!contains(data, ticketId)) return data;
    const pages = data.pages.map((p) => ({ ...p, tickets: p.tickets.filter((t) => t.id !== ticketId) }));
    return withCount(data, pages, -1);
  });
}

/** Some fields of a ticket, changed where the lists hold it (its place and the counts stay). */
function patchListed(client: QueryClient, ticketId: number, patch: Partial<Ticket>): void {
  eachList(client, (data) =>
    contains(data, ticketId)
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            tickets: p.tickets.map((t) => (t.id === ticketId ? { ...t, ...patch } : t)),
          })),
        }
      : data,
  );
}

export function markTicketRead(client: QueryClient, ticketId: number): void {
  patchListed(client, ticketId, { unreadMessages: 0 });
}

/**
 * Issue 22 §1: a retention sweep removed the ticket's messages: its preview (the last message's
 * text) is gone from the lists and from the open ticket, as on the server.
 */
export function clearPreview(client: QueryClient, ticketId: number): void {
  patchListed(client, ticketId, { lastMessage: "" });
  updateQueries<Ticket>(client, { queryKey: ticketKeys.detail(ticketId), exact: true }, (old) => ({ ...old, lastMessage: "" }));
}
