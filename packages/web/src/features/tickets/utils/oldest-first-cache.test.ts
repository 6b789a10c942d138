import { type InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import type { TicketPage } from "../api/get-tickets";
import { type TicketListParams, ticketKeys } from "../api/ticket-keys";
import { upsertTicket } from "./ticket-list-cache";

// Issue 13: a live event in the Waiting list sorted oldest first.
const ME = 5;
const AGENT = { id: ME, admin: false };
const ticket = (id: number): Ticket =>
  ({
    id,
    status: "pending",
    unreadMessages: 1,
    lastMessage: "hi",
    isGroup: false,
    userId: null,
    queueId: 10,
    contactId: id,
    whatsappId: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    contact: { id, name: `C${id}`, number: "5511", profilePicUrl: "" },
    queue: null,
    user: null,
    whatsapp: null,
  }) as Ticket;
const params: TicketListParams = { status: "pending", searchParam: "", showAll: false, queueIds: [10], sort: "oldest" };

function listWith(client: QueryClient, tickets: Ticket[], hasMore: boolean) {
  client.setQueryData<InfiniteData<TicketPage>>(ticketKeys.list(params), {
    pages: [{ tickets, count: tickets.length + (hasMore ? 40 : 0), hasMore }],
    pageParams: [1],
  });
}
const ids = (client: QueryClient) =>
  client.getQueryData<InfiniteData<TicketPage>>(ticketKeys.list(params))?.pages.flatMap((p) => p.tickets.map((t) => t.id));

describe("the Waiting list oldest first", () => {
  it("puts a ticket that just started waiting last; one already waiting keeps its place", () => {
    const client = new QueryClient();
    listWith(client, [ticket(1), ticket(2)], false);
    upsertTicket(client, ticket(3), AGENT);
    expect(ids(client)).toEqual([1, 2, 3]);
    // The longest-waiting customer writes again: their wait began no later, so they stay first.
    upsertTicket(client, { ...ticket(1), lastMessage: "anyone there?", unreadMessages: 2 }, AGENT);
    expect(ids(client)).toEqual([1, 2, 3]);
    const first = client.getQueryData<InfiniteData<TicketPage>>(ticketKeys.list(params))?.pages[0].tickets[0];
    expect(first?.lastMessage).toBe("anyone there?");
  });

  it("leaves it for a later page while more are to load, and still counts it", () => {
    const client = new QueryClient();
    listWith(client, [ticket(1), ticket(2)], true);
    upsertTicket(client, ticket(3), AGENT);
    expect(ids(client)).toEqual([1, 2]);
    expect(client.getQueryData<InfiniteData<TicketPage>>(ticketKeys.list(params))?.pages[0].count).toBe(43);
  });
});
