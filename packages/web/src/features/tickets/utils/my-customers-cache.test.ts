import { QueryClient } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import type { TicketPage } from "../api/get-tickets";
import { type TicketListParams, ticketKeys } from "../api/ticket-keys";
import { belongsInList, upsertTicket } from "./ticket-list-cache";

// Issue 23 §5: the "my customers" lists follow the contact's owner carried by each ticket.
const ME = 5;
const AGENT = { id: ME, admin: false };
const ticket = (ownerId: number | null | undefined, over: Partial<Ticket> = {}): Ticket =>
  ({
    id: 1,
    status: "open",
    unreadMessages: 0,
    lastMessage: "hi",
    isGroup: false,
    userId: ME,
    queueId: 10,
    contactId: 1,
    whatsappId: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    contact: { id: 1, name: "Maria", number: "5511", profilePicUrl: "", ...(ownerId !== undefined ? { ownerId } : {}) },
    queue: null,
    user: null,
    whatsapp: null,
    tags: [],
    ...over,
  }) as Ticket;
const mine: TicketListParams = { status: "open", searchParam: "", showAll: false, queueIds: [10], myCustomers: true };
const read = (client: QueryClient, p: TicketListParams) =>
  client.getQueryData<{ pages: TicketPage[] }>(ticketKeys.list(p))!.pages[0];

describe("my customers", () => {
  it("keeps the tickets of contacts the user owns only", () => {
    expect(belongsInList(ticket(ME), mine, AGENT)).toBe(true);
    expect(belongsInList(ticket(7), mine, AGENT)).toBe(false);
    expect(belongsInList(ticket(null), mine, AGENT)).toBe(false);
    // Without the filter, the owner does not matter.
    expect(belongsInList(ticket(7), { ...mine, myCustomers: undefined }, AGENT)).toBe(true);
  });

  it("an event without the owner (an inbound batch) keeps the owner a cached copy knows", () => {
    const client = new QueryClient();
    client.setQueryData(ticketKeys.list(mine), { pages: [{ tickets: [ticket(ME)], count: 1, hasMore: false }], pageParams: [1] });
    upsertTicket(client, ticket(undefined, { lastMessage: "new message", unreadMessages: 1 }), AGENT);
    const page = read(client, mine);
    expect(page.tickets.map((t) => [t.lastMessage, t.contact.ownerId])).toEqual([["new message", ME]]);
    expect(page.count).toBe(1);
    // The contact given to someone else leaves the list.
    upsertTicket(client, ticket(7), AGENT);
    expect(read(client, mine)).toMatchObject({ tickets: [], count: 0 });
  });
});
