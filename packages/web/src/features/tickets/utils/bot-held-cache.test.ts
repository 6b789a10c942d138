import { QueryClient } from "@tanstack/react-query";
import { listLeavesOutBotHeld, type Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import type { TicketPage } from "../api/get-tickets";
import { type TicketListParams, ticketKeys } from "../api/ticket-keys";
import { belongsInList, upsertTicket } from "./ticket-list-cache";

// Issue 23 §4: while a queue's bot holds a waiting ticket, the server leaves it out of agents'
// waiting lists (admins see it); the live lists follow the same rule, so an event never shows an
// agent what a reload would hide, and the bot's handover brings the ticket in as any waiting ticket.
const AGENT = { id: 5, admin: false };
const ADMIN = { id: 1, admin: true };

const ticket = (over: Partial<Ticket> = {}): Ticket =>
  ({
    id: 1,
    status: "pending",
    unreadMessages: 1,
    lastMessage: "oi",
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
    tags: [],
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

describe("a ticket a bot holds, in the live lists", () => {
  it("stays out of an agent's waiting list and in an admin's", () => {
    const held = ticket({ botHeld: true });
    expect(belongsInList(held, params(), AGENT)).toBe(false);
    expect(belongsInList(held, params({ showAll: true, queueIds: null }), AGENT)).toBe(false);
    expect(belongsInList(held, params(), ADMIN)).toBe(true);
    // Handed over: an ordinary waiting ticket.
    expect(belongsInList(ticket({ botHeld: false }), params(), AGENT)).toBe(true);
    // Taken over by an admin before the session ended (it ends at the customer's next message):
    // the open lists never leave held tickets out, on the server either.
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
