import { QueryClient } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import type { TicketPage } from "../api/get-tickets";
import { type TicketListParams, ticketKeys } from "../api/ticket-keys";
import { belongsInList, markMovedAway, markTicketRead, movedAwayFrom, removeTicket, upsertTicket } from "./ticket-list-cache";

const ME = 5;
const AGENT = { id: ME, admin: false };
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
    expect(belongsInList(ticket({}), params(), AGENT)).toBe(true);
    expect(belongsInList(ticket({ userId: ME, status: "open" }), params({ status: "open" }), AGENT)).toBe(true);
    expect(belongsInList(ticket({ userId: 9, status: "open" }), params({ status: "open" }), AGENT)).toBe(false);
    expect(belongsInList(ticket({ userId: 9, status: "open" }), params({ status: "open", showAll: true }), AGENT)).toBe(true);
    expect(belongsInList(ticket({ queueId: 11 }), params(), AGENT)).toBe(false);
    expect(belongsInList(ticket({ queueId: null }), params(), AGENT)).toBe(true);
    expect(belongsInList(ticket({ status: "open" }), params(), AGENT)).toBe(false);
    expect(belongsInList(ticket({}), params({ status: undefined, searchParam: "mar" }), AGENT)).toBe(false);
  });

  it("moves a ticket between lists with the counts following, and drops it on delete", () => {
    const client = new QueryClient();
    const pending = params();
    const open = params({ status: "open" });
    cached(client, pending, [ticket({ id: 2 }), ticket({ id: 1 })]);
    cached(client, open, []);

    upsertTicket(client, ticket({ id: 1, status: "open", userId: ME }), AGENT);
    expect(read(client, pending).tickets.map((t) => t.id)).toEqual([2]);
    expect(read(client, pending).count).toBe(1);
    expect(read(client, open).tickets.map((t) => t.id)).toEqual([1]);
    expect(read(client, open).count).toBe(1);

    upsertTicket(client, ticket({ id: 3 }), AGENT);
    expect(read(client, pending).tickets.map((t) => t.id)).toEqual([3, 2]);
    upsertTicket(client, ticket({ id: 4, queueId: 99 }), AGENT);
    expect(read(client, pending).tickets.map((t) => t.id)).toEqual([3, 2]);

    markTicketRead(client, 3);
    expect(read(client, pending).tickets[0].unreadMessages).toBe(0);
    removeTicket(client, 3);
    expect(read(client, pending).tickets.map((t) => t.id)).toEqual([2]);
    expect(read(client, pending).count).toBe(1);
  });

  it("keeps the viewer's own tickets whatever the queue filter (issue 12, item 16)", () => {
    const mineElsewhere = ticket({ status: "open", userId: ME, queueId: 99 });
    expect(belongsInList(mineElsewhere, params({ status: "open" }), AGENT)).toBe(true);
    expect(
      belongsInList(ticket({ status: "open", userId: 9, queueId: 99 }), params({ status: "open", showAll: true }), AGENT),
    ).toBe(false);
    const client = new QueryClient();
    const open = params({ status: "open" });
    cached(client, open, []);
    upsertTicket(client, mineElsewhere, AGENT);
    expect(read(client, open).tickets.map((t) => t.id)).toEqual([mineElsewhere.id]);
  });

  it("with nothing ticked keeps only the viewer's own tickets; null is no queue filter (item 20)", () => {
    const none = params({ queueIds: [] });
    expect(belongsInList(ticket({}), none, AGENT)).toBe(false);
    expect(belongsInList(ticket({ queueId: null }), none, AGENT)).toBe(false);
    expect(belongsInList(ticket({ status: "open", userId: ME }), params({ status: "open", queueIds: [] }), AGENT)).toBe(true);
    const unfiltered = params({ queueIds: null });
    expect(belongsInList(ticket({ queueId: 99 }), unfiltered, AGENT)).toBe(true);
    expect(belongsInList(ticket({ queueId: null }), unfiltered, AGENT)).toBe(true);
  });

  it("drops a ticket moved out of reach from every list (item 14)", () => {
    const client = new QueryClient();
    const pending = params();
    const everything = params({ queueIds: null });
    cached(client, pending, [ticket({ id: 1, queueId: null })]);
    cached(client, everything, [ticket({ id: 1, queueId: null }), ticket({ id: 2 })]);
    removeTicket(client, 1);
    expect(read(client, pending)).toMatchObject({ tickets: [], count: 0 });
    expect(read(client, everything).tickets.map((t) => t.id)).toEqual([2]);
  });

  it("tells a ticket that left the viewer's hands from one that only changed (item 21)", () => {
    const mine = ticket({ status: "open", userId: ME });
    expect(movedAwayFrom(mine, { ...mine, userId: 9 }, ME)).toBe(true);
    expect(movedAwayFrom(mine, { ...mine, status: "pending", userId: null, queueId: 11 }, ME)).toBe(true);
    expect(movedAwayFrom(mine, { ...mine, status: "closed", userId: 1 }, ME)).toBe(false);
    expect(movedAwayFrom(mine, { ...mine, lastMessage: "new" }, ME)).toBe(false);
    expect(movedAwayFrom(ticket({ status: "open", userId: 9 }), { ...mine, userId: 8 }, ME)).toBe(false);
    expect(movedAwayFrom(undefined, { ...mine, userId: 9 }, ME)).toBe(false);

    const client = new QueryClient();
    markMovedAway(client, mine.id);
    expect(client.getQueryData(ticketKeys.movedAway(mine.id))).toBe(true);
    upsertTicket(client, { ...mine, userId: 9 }, AGENT);
    expect(client.getQueryData(ticketKeys.movedAway(mine.id))).toBe(true);
    // Transferred back: the chat takes messages again.
    upsertTicket(client, mine, AGENT);
    expect(client.getQueryData(ticketKeys.movedAway(mine.id))).toBe(false);
  });
});
