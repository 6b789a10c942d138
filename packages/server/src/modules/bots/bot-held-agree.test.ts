import { randomBytes } from "node:crypto";
import { hiddenWhileBotHolds, type Ticket } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeContact, makeQueue, makeUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { botSessions, tickets } from "../../db/schema.js";
import { storeBatch } from "../messages/inbound-batch.js";
import { listTickets, type TicketFilter } from "../tickets/ticket-list.repo.js";
import { presentTicket } from "../tickets/tickets.presenter.js";

/**
 * Issue 23 §4: "a bot holds this ticket, so this agent's list leaves it out" is one rule, core's
 * `hiddenWhileBotHolds`, asked by the web's live lists (`belongsInList`) of each ticket's `botHeld`,
 * and written as SQL (`notBotHeld`) in the server's lists. On a matrix of viewers, lists and
 * tickets, the server's lists must be what the rule leaves of them, and every presented ticket must
 * say whether a bot holds it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ start: false });
});
afterAll(() => t.close());

type Row = typeof tickets.$inferSelect;
const word = () => randomBytes(4).toString("hex");

describe("tickets a bot holds: the server's lists and the live rule agree", () => {
  it("on every viewer × status × showAll × search", async () => {
    const db = t.database.db;
    const queue = await makeQueue(t);
    const admin = await makeAdmin(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const search = `botheld${word()}`;
    const shapes: Record<string, Partial<Row>> = {
      heldWaiting: { status: "pending", queueId: queue.id, userId: null },
      freeWaiting: { status: "pending", queueId: queue.id, userId: null },
      // An admin took it over; its session ends at the customer's next message.
      heldTakenByAdmin: { status: "open", queueId: queue.id, userId: admin.id },
      heldTransferredToAgent: { status: "open", queueId: queue.id, userId: agent.id },
      freeOpen: { status: "open", queueId: queue.id, userId: agent.id },
      closed: { status: "closed", queueId: queue.id, userId: agent.id },
    };
    const rows: Record<string, Row> = {};
    for (const [name, shape] of Object.entries(shapes)) {
      const contact = await makeContact(t, { name: `${search} ${name}` });
      [rows[name]] = await db
        .insert(tickets)
        .values({ contactId: contact.id, ...shape })
        .returning();
    }
    const held = ["heldWaiting", "heldTakenByAdmin", "heldTransferredToAgent"];
    const nameOf = new Map(Object.entries(rows).map(([name, row]) => [row.id, name]));

    const viewers = {
      admin: { id: admin.id, admin: true, queueIds: [] },
      agent: { id: agent.id, admin: false, queueIds: [queue.id] },
    };
    const lists: Omit<TicketFilter, "actor">[] = [];
    for (const status of [undefined, "pending", "open", "closed"]) {
      for (const showAll of [false, true]) {
        for (const text of ["", search]) lists.push({ status, showAll, search: text });
      }
    }
    // Each list's tickets (ours only), presented as the API and the events present them.
    const listed = async (actor: TicketFilter["actor"], list: Omit<TicketFilter, "actor">) => {
      const page = await listTickets(db, { ...list, actor }, { limit: 10_000, offset: 0 });
      return page.rows.filter((row) => nameOf.has(row.ticket.id)).map(presentTicket);
    };
    const names = (found: Ticket[]) => found.map((ticket) => nameOf.get(ticket.id)).sort();

    // Before the bot holds anything, then with the sessions: the second is the first less what the rule hides.
    const before = new Map<string, Ticket[]>();
    for (const [who, actor] of Object.entries(viewers)) {
      for (const list of lists) before.set(`${who} ${JSON.stringify(list)}`, await listed(actor, list));
    }
    await db.insert(botSessions).values(held.map((name) => ({ ticketId: rows[name].id, queueId: queue.id, kind: "typebot" })));

    let hidden = 0;
    for (const [who, actor] of Object.entries(viewers)) {
      for (const list of lists) {
        const label = `${who} ${JSON.stringify(list)}`;
        const after = await listed(actor, list);
        // Every ticket says whether a bot holds it.
        for (const ticket of after)
          expect(ticket.botHeld, `${label}: ${nameOf.get(ticket.id)}`).toBe(held.includes(nameOf.get(ticket.id)!));
        const expected = (before.get(label) ?? [])
          .map((ticket) => ({ ...ticket, botHeld: held.includes(nameOf.get(ticket.id)!) }))
          .filter((ticket) => !hiddenWhileBotHolds(ticket, actor, list));
        hidden += (before.get(label)?.length ?? 0) - expected.length;
        expect(names(after), label).toEqual(names(expected));
      }
    }
    // The matrix did hide something (the agent's waiting and status-less lists), and not everything.
    expect(hidden).toBeGreaterThan(0);
  });

  it("every road that presents a ticket says whether a bot holds it", async () => {
    const db = t.database.db;
    const queue = await makeQueue(t);
    const admin = await makeAdmin(t);
    // The connection's row is all the batch reads (the app is not started: no session connects).
    const created = await t.app.inject({
      method: "POST",
      url: "/api/whatsapp",
      headers: admin.auth,
      payload: { name: `Sim ${word()}`, provider: "simulator", queueIds: [queue.id], greetingMessage: "", farewellMessage: "" },
    });
    expect(created.statusCode, created.body).toBe(200);
    const connection = created.json() as { id: number };
    const chat = `5511${randomBytes(4).readUInt32BE() % 100_000_000}`;
    const item = (body: string) => ({
      wid: `W${randomBytes(6).toString("hex")}`,
      chat,
      isGroup: false,
      fromMe: false,
      timestamp: new Date(),
      type: "chat",
      body,
    });
    const clock = { now: () => new Date() };
    // The batch road (a connection without a bot): a ticket no bot holds ...
    const [first] = await storeBatch(db, clock, connection.id, [item("oi")], 3600);
    expect(first?.ticket.botHeld).toBe(false);
    const ticketId = first!.ticket.ticket.id;
    // ... and one a bot holds (its queue left this connection, or a bot came meanwhile).
    await db.insert(botSessions).values({ ticketId, queueId: queue.id, kind: "typebot" });
    const [second] = await storeBatch(db, clock, connection.id, [item("alô")], 3600);
    expect(second?.ticket.botHeld).toBe(true);
    // Opening the ticket, and its chat (one prepared statement each).
    const opened = await t.app.inject({ method: "GET", url: `/api/tickets/${ticketId}`, headers: admin.auth });
    expect(opened.json()).toMatchObject({ id: ticketId, botHeld: true });
    const chatPage = await t.app.inject({ method: "GET", url: `/api/messages/${ticketId}`, headers: admin.auth });
    expect(chatPage.json().ticket).toMatchObject({ id: ticketId, botHeld: true });
  });
});
