import type { Connection, Ticket } from "@zapdesk/core";
import { and, asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  phoneReceived,
} from "../../../test/conversation.js";
import { makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import type { InboundMessage } from "../../channels/channel.js";
import { contacts, messages, ticketRatings, tickets } from "../../db/schema.js";
import { expireRatings, ratingsOfTicket } from "./ratings.js";

const QUESTION = "Como você avalia o nosso atendimento? Responda com um número de 1 a 5.";
const FAREWELL = "Obrigado pelo contato!";

let t: TestApp;
let admin: TestUser;
const clock = manualClock();

beforeAll(async () => {
  // The clock moves by days here: tokens must outlive it.
  t = await createTestApp({ clock, accessTtlSeconds: 30 * 86_400 });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

async function ratedConnection(overrides: { ratingMessage?: string; ratingTimeoutMinutes?: number } = {}) {
  const connection = await makeSimulatorConnection(t, admin, { farewellMessage: FAREWELL });
  const res = await t.app.inject({
    method: "PUT",
    url: `/api/whatsapp/${connection.id}`,
    headers: admin.auth,
    payload: { ratingMessage: QUESTION, ratingTimeoutMinutes: 60, ...overrides },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Connection;
}

const put = (user: TestUser, id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: `/api/tickets/${id}`, headers: user.auth, payload });

/** A customer writes, an agent takes the ticket and resolves it. */
async function resolvedTicket(connection: Connection, agent: TestUser = admin, from = customerNumber()) {
  await customerWrites(t, admin, connection.id, { from, body: "preciso de ajuda" });
  const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
    (x) => x.contact.number === from,
  ) as Ticket;
  expect((await put(agent, ticket.id, { status: "open", userId: agent.id })).statusCode).toBe(200);
  const closed = await put(agent, ticket.id, { status: "closed", userId: agent.id });
  expect(closed.statusCode, closed.body).toBe(200);
  return { from, ticket: closed.json() as Ticket };
}

async function ticketsOf(number: string) {
  return t.database.db
    .select({ id: tickets.id, status: tickets.status, rating: tickets.rating })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(eq(contacts.number, number))
    .orderBy(asc(tickets.id));
}

const getTicket = async (id: number) =>
  (await t.app.inject({ method: "GET", url: `/api/tickets/${id}`, headers: admin.auth })).json() as Ticket;

let serial = 0;
const inbound = (from: string, body: string): InboundMessage => {
  serial += 1;
  return {
    wid: `CSAT-${from}-${serial}`,
    chat: from,
    isGroup: false,
    sender: { number: from, name: "Cliente" },
    fromMe: false,
    timestamp: new Date(),
    type: "chat",
    body,
  };
};

describe("satisfaction rating (CSAT)", () => {
  it("asks the question after the farewell on resolve, only when the connection has one", async () => {
    const connection = await ratedConnection();
    const { from, ticket } = await resolvedTicket(connection);
    expect(ticket.rating).toBeNull();
    const received = await eventually(async () => {
      const sent = await phoneReceived(t, admin, connection.id, from);
      expect(sent).toHaveLength(2);
      return sent;
    });
    expect(received.map((m) => m.body)).toEqual([FAREWELL, QUESTION]);
    const [request] = await ratingsOfTicket(t.database.db, ticket.id);
    expect(request).toMatchObject({ status: "pending", rating: null });
    expect(request.expiresAt.getTime() - request.requestedAt.getTime()).toBe(60 * 60_000);
    const [question] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.id, request.questionMessageId as number));
    expect(question).toMatchObject({ body: QUESTION, fromBot: true, fromMe: true, ticketId: ticket.id });

    // Off (empty message): only the farewell, no request.
    const silent = await ratedConnection({ ratingMessage: "" });
    const other = await resolvedTicket(silent);
    await eventually(async () => expect(await phoneReceived(t, admin, silent.id, other.from)).toHaveLength(1));
    expect(await ratingsOfTicket(t.database.db, other.ticket.id)).toEqual([]);
  });

  it("a reply 1–5 rates the closed ticket: stored on it, not reopened, no new ticket", async () => {
    const connection = await ratedConnection();
    const { from, ticket } = await resolvedTicket(connection);
    await customerWrites(t, admin, connection.id, { from, body: " 5! " });
    expect(await ticketsOf(from)).toEqual([{ id: ticket.id, status: "closed", rating: 5 }]);
    const shown = await getTicket(ticket.id);
    expect(shown).toMatchObject({ status: "closed", rating: 5, updatedAt: ticket.updatedAt });
    const [request] = await ratingsOfTicket(t.database.db, ticket.id);
    expect(request).toMatchObject({ status: "rated", rating: 5 });
    const [answer] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.id, request.answerMessageId as number));
    expect(answer).toMatchObject({ body: " 5! ", ticketId: ticket.id, fromMe: false });

    // The request is answered: the next message is a normal one (the usual reopen rule).
    await customerWrites(t, admin, connection.id, { from, body: "mais uma dúvida" });
    const after = await ticketsOf(from);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: "pending", rating: 5 });
  });

  it("a reply that is not a rating cancels the request and is handled as a normal message", async () => {
    const connection = await ratedConnection();
    const { from, ticket } = await resolvedTicket(connection);
    await customerWrites(t, admin, connection.id, { from, body: "obrigado, mas ainda não funcionou" });
    const [request] = await ratingsOfTicket(t.database.db, ticket.id);
    expect(request.status).toBe("cancelled");
    expect(await ticketsOf(from)).toEqual([{ id: ticket.id, status: "pending", rating: null }]);
    // Too late now: "5" is an ordinary message.
    await customerWrites(t, admin, connection.id, { from, body: "5" });
    expect((await ticketsOf(from))[0].rating).toBeNull();
  });

  it("expires after the window: lazily on the next message, and by the sweeper", async () => {
    const connection = await ratedConnection({ ratingTimeoutMinutes: 30 });
    const { from, ticket } = await resolvedTicket(connection);
    const second = await resolvedTicket(connection);
    clock.advance(31 * 60_000);
    await t.pipeline.onMessage(connection.id, inbound(from, "5"));
    expect((await ratingsOfTicket(t.database.db, ticket.id))[0].status).toBe("expired");
    expect((await ticketsOf(from)).every((x) => x.rating === null)).toBe(true);

    expect(await expireRatings(t.database.db, clock.now())).toBeGreaterThanOrEqual(1);
    expect((await ratingsOfTicket(t.database.db, second.ticket.id))[0].status).toBe("expired");
    await t.pipeline.onMessage(connection.id, inbound(second.from, "4"));
    expect((await ticketsOf(second.from)).every((x) => x.rating === null)).toBe(true);
  });

  it("two racing answers rate the ticket exactly once", async () => {
    const connection = await ratedConnection();
    const { from, ticket } = await resolvedTicket(connection);
    await Promise.all([
      customerWrites(t, admin, connection.id, { from, body: "5" }),
      customerWrites(t, admin, connection.id, { from, body: "3" }),
    ]);
    const requests = await ratingsOfTicket(t.database.db, ticket.id);
    expect(requests).toHaveLength(1);
    expect(requests[0].status).toBe("rated");
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row.rating).toBe(requests[0].rating);
    expect([3, 5]).toContain(row.rating);
    const [{ n }] = await t.database.db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.contactId, ticket.contactId), eq(messages.fromMe, false)));
    expect(n).toBe(3);
  });

  it("a burst from a customer with a pending question takes the one-message path: the first answer rates, the rest are normal", async () => {
    const connection = await ratedConnection();
    const { from, ticket } = await resolvedTicket(connection);
    const bystander = customerNumber();
    const burst = [inbound(from, "4️⃣"), inbound(bystander, "oi"), inbound(from, "valeu"), inbound(bystander, "tudo bem?")];
    await Promise.all(burst.map((m) => t.pipeline.onMessage(connection.id, m)));
    const [request] = await ratingsOfTicket(t.database.db, ticket.id);
    expect(request).toMatchObject({ status: "rated", rating: 4 });
    const rows = await t.database.db.select().from(messages).where(eq(messages.whatsappId, connection.id));
    const byWid = new Map(rows.map((m) => [m.wid, m]));
    expect(byWid.get(burst[0].wid)?.ticketId).toBe(ticket.id);
    expect(byWid.get(burst[1].wid)).toBeDefined();
    expect(byWid.get(burst[3].wid)).toBeDefined();
    // "valeu" came after the answer: an ordinary message (reopens the recent ticket as usual).
    expect(await ticketsOf(from)).toEqual([{ id: ticket.id, status: "pending", rating: 4 }]);
  });

  it("is not asked when a ticket is deleted; an agent's reopening or new ticket cancels the question", async () => {
    const connection = await ratedConnection();
    const { from, ticket } = await resolvedTicket(connection);
    expect((await put(admin, ticket.id, { status: "open", userId: admin.id })).statusCode).toBe(200);
    await customerWrites(t, admin, connection.id, { from, body: "5" });
    expect((await ratingsOfTicket(t.database.db, ticket.id))[0].status).toBe("cancelled");
    expect((await ticketsOf(from))[0].rating).toBeNull();

    // A new ticket an agent started for the customer makes the question outdated too.
    const other = await resolvedTicket(connection);
    const started = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: admin.auth,
      payload: { contactId: other.ticket.contactId, whatsappId: connection.id, status: "open" },
    });
    expect(started.statusCode, started.body).toBe(200);
    await customerWrites(t, admin, connection.id, { from: other.from, body: "5" });
    expect((await ratingsOfTicket(t.database.db, other.ticket.id))[0].status).toBe("cancelled");
    expect((await ticketsOf(other.from)).map((x) => x.rating)).toEqual([null, null]);

    const before = await t.database.db.select({ n: count() }).from(ticketRatings);
    const deleted = customerNumber();
    await customerWrites(t, admin, connection.id, { from: deleted, body: "oi" });
    const [pending] = await ticketsOf(deleted);
    const res = await t.app.inject({ method: "DELETE", url: `/api/tickets/${pending.id}`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.database.db.select({ n: count() }).from(ticketRatings)).toEqual(before);
  });

  it("validates the connection's survey settings and keeps them admin-only", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    for (const payload of [
      { ratingTimeoutMinutes: 0 },
      { ratingTimeoutMinutes: 4 },
      { ratingTimeoutMinutes: 10_081 },
      { ratingTimeoutMinutes: 1.5 },
      { ratingTimeoutMinutes: "60" },
      { ratingMessage: "x".repeat(1001) },
      { ratingMessage: 5 },
    ]) {
      const res = await t.app.inject({ method: "PUT", url: `/api/whatsapp/${connection.id}`, headers: admin.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    const agent = await makeUser(t);
    const denied = await t.app.inject({
      method: "PUT",
      url: `/api/whatsapp/${connection.id}`,
      headers: agent.auth,
      payload: { ratingMessage: QUESTION },
    });
    expect(denied.statusCode).toBe(403);
    const saved = await ratedConnection({ ratingTimeoutMinutes: 10_080 });
    expect(saved).toMatchObject({ ratingMessage: QUESTION, ratingTimeoutMinutes: 10_080 });
    const fresh = await makeSimulatorConnection(t, admin);
    expect(fresh).toMatchObject({ ratingMessage: "", ratingTimeoutMinutes: 1440 });
  });
});
