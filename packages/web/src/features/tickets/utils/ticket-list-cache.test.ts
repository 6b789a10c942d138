import { QueryClient } from "@tanstack/react-query";
import { listLeavesOutBotHeld, type Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import type { TicketPage } from "../api/get-tickets";
import { type TicketListParams, ticketKeys } from "../api/ticket-keys";
import { belongsInList, markMovedAway, markTicketRead, movedAwayFrom, removeTicket, upsertTicket } from "./ticket-list-cache";

const ME = 5;
const AGENT = { id: ME, admin: false };
const ADMIN = { id: 1, admin: true };
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

  it("a ticket given to the agent while their list is being fetched is in it when the answer, read before, lands", async () => {
    // CI once saw it: the agent opened the tickets page as the routing pass gave them their
    // customer's ticket; the event came while the list's first fetch was under way and was lost.
    const client = new QueryClient();
    const open = params({ status: "open" });
    let answer!: (page: TicketPage) => void;
    const answered = new Promise<TicketPage>((resolve) => {
      answer = resolve;
    });
    const fetched = client.fetchInfiniteQuery({ queryKey: ticketKeys.list(open), queryFn: () => answered, initialPageParam: 1 });
    upsertTicket(client, ticket({ id: 7, status: "open", userId: ME }), AGENT);
    answer({ tickets: [ticket({ id: 3, status: "open", userId: ME })], count: 1, hasMore: false });
    await fetched;
    expect(read(client, open).tickets.map((t) => t.id)).toEqual([7, 3]);
    expect(read(client, open).count).toBe(2);
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

// Issue 23 §4: while a queue's bot holds a waiting ticket, the server leaves it out of agents'
// waiting lists (admins see it); the live lists follow the same rule, so an event never shows an
// agent what a reload would hide, and the bot's handover brings the ticket in as any waiting ticket.
describe("a ticket a bot holds, in the live lists", () => {
  it("stays out of an agent's waiting list and in an admin's", () => {
    const held = ticket({ botHeld: true });
    expect(belongsInList(held, params(), AGENT)).toBe(false);
    expect(belongsInList(held, params({ showAll: true, queueIds: null }), AGENT)).toBe(false);
    expect(belongsInList(held, params(), ADMIN)).toBe(true);
    // Handed over: an ordinary waiting ticket.
    expect(belongsInList(ticket({ botHeld: false }), params(), AGENT)).toBe(true);
    // The open lists never leave a held ticket out, on the server either (a bot holds waiting tickets only).
    const taken = ticket({ botHeld: true, status: "open", userId: AGENT.id });
    expect(belongsInList(taken, params({ status: "open" }), AGENT)).toBe(true);
  });

  it("follows core's rule, the one the server's list query asks", () => {
    const held = ticket({ botHeld: true });
    for (const viewer of [AGENT, ADMIN]) {
      for (const showAll of [false, true]) {
        const list = params({ showAll });
        const leftOut = listLeavesOutBotHeld(viewer, { status: list.status, search: list.searchParam });
        expect(belongsInList(held, list, viewer), `admin ${viewer.admin}, showAll ${showAll}`).toBe(!leftOut);
      }
    }
  });

  it("is not added to an agent's waiting list by the bot's events, and is once the bot hands over", () => {
    const client = new QueryClient();
    const agentList = params();
    cached(client, agentList, [ticket({ id: 2 })]);

    // The customer's message and the bot's answers: events about the held ticket.
    upsertTicket(client, ticket({ id: 1, botHeld: true }), AGENT);
    upsertTicket(client, ticket({ id: 1, botHeld: true, lastMessage: "Qual o número do pedido?" }), AGENT);
    expect(read(client, agentList)).toMatchObject({ count: 1, tickets: [{ id: 2 }] });

    // The bot hands the ticket to the queue: it now waits like any other.
    upsertTicket(client, ticket({ id: 1, botHeld: false }), AGENT);
    expect(read(client, agentList).tickets.map((t) => t.id)).toEqual([1, 2]);
    expect(read(client, agentList).count).toBe(2);
  });

  it("leaves an agent's list if an event says a bot holds it, and reaches an admin's at once", () => {
    const client = new QueryClient();
    const list = params();
    cached(client, list, [ticket({ id: 1 }), ticket({ id: 2 })]);
    upsertTicket(client, ticket({ id: 1, botHeld: true }), AGENT);
    expect(read(client, list)).toMatchObject({ count: 1, tickets: [{ id: 2 }] });

    const adminClient = new QueryClient();
    cached(adminClient, list, []);
    upsertTicket(adminClient, ticket({ id: 1, botHeld: true }), ADMIN);
    expect(read(adminClient, list)).toMatchObject({ count: 1, tickets: [{ id: 1 }] });
  });
});
