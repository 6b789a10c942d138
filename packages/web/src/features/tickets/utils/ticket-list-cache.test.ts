import { QueryClient } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import type { TicketPage } from "../api/get-tickets";
import { type TicketListParams, ticketKeys } from "../api/ticket-keys";
import { belongsInList, markTicketRead, removeTicket, upsertTicket } from "./ticket-list-cache";

const ME = 5;
const ticket = (over: Partial<Ticket>): Ticket =>
  ({
    id: 1,
    status: "pending",
    unreadMessages: 1,
    lastMessage: "hi",
    isGroup: false,
    userId: null,
    queueId: 10,
    contactId: 1,
    whatsappId: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    contact: { id: 1, name: "Maria", number: "5511", profilePicUrl: "" },
    queue: null,
    user: null,
    whatsapp: null,
    ...over,
  }) as Ticket;
const params = (over: Partial<TicketListParams> = {}): TicketListParams => ({
  status: "pending",
  searchParam: "",
  showAll: false,
  queueIds: [10],
  ...over,
});

function cached(client: QueryClient, p: TicketListParams, tickets: Ticket[]) {
  client.setQueryData(ticketKeys.list(p), { pages: [{ tickets, count: tickets.length, hasMore: false }], pageParams: [1] });
}
const read = (client: QueryClient, p: TicketListParams) =>
  client.getQueryData<{ pages: TicketPage[] }>(ticketKeys.list(p))!.pages[0];

describe("live ticket lists (spec §4)", () => {
  it("shows unassigned and own tickets, others' only with showAll, and only in the selected queues", () => {
    expect(belongsInList(ticket({}), params(), ME)).toBe(true);
    expect(belongsInList(ticket({ userId: ME, status: "open" }), params({ status: "open" }), ME)).toBe(true);
    expect(belongsInList(ticket({ userId: 9, status: "open" }), params({ status: "open" }), ME)).toBe(false);
    expect(belongsInList(ticket({ userId: 9, status: "open" }), params({ status: "open", showAll: true }), ME)).toBe(true);
    expect(belongsInList(ticket({ queueId: 11 }), params(), ME)).toBe(false);
    expect(belongsInList(ticket({ queueId: null }), params(), ME)).toBe(true);
    expect(belongsInList(ticket({ status: "open" }), params(), ME)).toBe(false);
    expect(belongsInList(ticket({}), params({ status: undefined, searchParam: "mar" }), ME)).toBe(false);
  });

  it("moves a ticket between lists with the counts following, and drops it on delete", () => {
    const client = new QueryClient();
    const pending = params();
    const open = params({ status: "open" });
    cached(client, pending, [ticket({ id: 2 }), ticket({ id: 1 })]);
    cached(client, open, []);

    upsertTicket(client, ticket({ id: 1, status: "open", userId: ME }), ME);
    expect(read(client, pending).tickets.map((t) => t.id)).toEqual([2]);
    expect(read(client, pending).count).toBe(1);
    expect(read(client, open).tickets.map((t) => t.id)).toEqual([1]);
    expect(read(client, open).count).toBe(1);

    upsertTicket(client, ticket({ id: 3 }), ME);
    expect(read(client, pending).tickets.map((t) => t.id)).toEqual([3, 2]);
    upsertTicket(client, ticket({ id: 4, queueId: 99 }), ME);
    expect(read(client, pending).tickets.map((t) => t.id)).toEqual([3, 2]);

    markTicketRead(client, 3);
    expect(read(client, pending).tickets[0].unreadMessages).toBe(0);
    removeTicket(client, 3);
    expect(read(client, pending).tickets.map((t) => t.id)).toEqual([2]);
    expect(read(client, pending).count).toBe(1);
  });
});
