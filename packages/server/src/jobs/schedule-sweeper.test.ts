import type { Connection, Schedule, Ticket } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection, phoneReceived } from "../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../test/factories.js";
import { createTestApp, manualClock, openTestDatabase, type TestApp } from "../../test/harness.js";
import { multipart } from "../../test/multipart.js";
import { messages, outbox, scheduledMessages, tickets, whatsapps } from "../db/schema.js";
import { createOutboundQueue } from "../modules/messages/outbound-queue.js";
import { MAX_ATTEMPTS } from "./outbox-worker.js";
import { createScheduleSweeper } from "./schedule-sweeper.js";

/**
 * The due sweeper on a clock the test moves: a schedule is due only when the test says so, across a
 * restart, with two sweepers racing, and when the outbox gives up on its message.
 */
const clock = manualClock(new Date(Date.now() + 60 * 60 * 1000));
const HOUR = 60 * 60 * 1000;
const TTL = 30 * 24 * 3600;

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;
let admin: TestUser;
let connection: Connection;

beforeAll(async () => {
  database = await openTestDatabase();
  t = await createTestApp({ database, clock, accessTtlSeconds: TTL });
  admin = await makeAdmin(t);
  connection = await makeSimulatorConnection(t, admin);
});
afterAll(async () => {
  await t?.close();
  await database?.close();
  await database?.drop();
});

async function openTicket() {
  const customer = customerNumber();
  await customerWrites(t, admin, connection.id, { from: customer, body: "hi" });
  const list = await t.app.inject({
    method: "GET",
    url: `/api/tickets?showAll=true&searchParam=${customer}`,
    headers: admin.auth,
  });
  const ticket = (list.json() as { tickets: Ticket[] }).tickets[0];
  const opened = await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticket.id}`,
    headers: admin.auth,
    payload: { status: "open", userId: admin.id },
  });
  expect(opened.statusCode, opened.body).toBe(200);
  return { customer, ticket };
}

async function schedule(payload: object) {
  const res = await t.app.inject({ method: "POST", url: "/api/schedules", headers: admin.auth, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Schedule;
}

const inOneHour = () => new Date(clock.now().getTime() + HOUR).toISOString();
const received = async (to: string) => (await phoneReceived(t, admin, connection.id, to)).map((m) => m.body);
const stored = async (id: number) => (await database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, id)))[0];
const messagesOf = async (ticketId: number) => database.db.select().from(messages).where(eq(messages.ticketId, ticketId));

async function restart() {
  const { jwtSecret, jwtRefreshSecret, encryptionKey } = t.config;
  await t.close();
  t = await createTestApp({ database, clock, accessTtlSeconds: TTL, config: { jwtSecret, jwtRefreshSecret, encryptionKey } });
  await eventually(() => expect(t.sessions.isConnected(connection.id)).toBe(true));
}

describe("the schedule sweeper", () => {
  it("sends a schedule that fell due while the server was down, once, after the restart", async () => {
    const { customer, ticket } = await openTicket();
    const created = await schedule({ ticketId: ticket.id, body: "due during the outage", sendAt: inOneHour() });
    await t.close();
    clock.advance(HOUR + 1000);
    const { jwtSecret, jwtRefreshSecret, encryptionKey } = t.config;
    t = await createTestApp({ database, clock, accessTtlSeconds: TTL, config: { jwtSecret, jwtRefreshSecret, encryptionKey } });
    await eventually(() => expect(t.sessions.isConnected(connection.id)).toBe(true));
    await eventually(async () => expect(await received(customer)).toEqual(["due during the outage"]));
    expect(await stored(created.id)).toMatchObject({ status: "sent", messageId: expect.any(Number) });
    expect((await messagesOf(ticket.id)).filter((m) => m.body === "due during the outage")).toHaveLength(1);
  });

  it("a schedule handed to the outbox just before a crash is sent by the next process, once", async () => {
    const { customer, ticket } = await openTicket();
    const created = await schedule({ ticketId: ticket.id, body: "handed over, then crash", sendAt: inOneHour() });
    await t.outbox.stop();
    clock.advance(HOUR + 1000);
    await t.services.schedules.sweep();
    const row = await stored(created.id);
    expect(row.status).toBe("sent");
    // Claimed by the outbox of the process that is about to die.
    await database.db
      .update(outbox)
      .set({ lockedUntil: new Date(clock.now().getTime() + 60_000), attempts: 1 })
      .where(eq(outbox.messageId, row.messageId as number));
    expect(await received(customer)).toEqual([]);
    await restart();
    await eventually(async () => expect(await received(customer)).toEqual(["handed over, then crash"]));
    await t.services.schedules.sweep();
    await t.outbox.drain();
    expect(await received(customer)).toEqual(["handed over, then crash"]);
  });

  it("two sweepers racing over the same due schedules hand each over once", async () => {
    const { customer, ticket } = await openTicket();
    const ids: number[] = [];
    for (const body of ["race one", "race two", "race three"]) {
      ids.push((await schedule({ ticketId: ticket.id, body, sendAt: inOneHour() })).id);
    }
    const outbound = createOutboundQueue({
      notifyOutbox: () => t.outbox.notify(),
      announce: (ticketId, ids) => t.services.messages.announceCreated(ticketId, ids),
    });
    const other = createScheduleSweeper({ db: database.db, clock, logger: t.app.log, outbound });
    clock.advance(HOUR + 1000);
    const counts = await Promise.all([t.services.schedules.sweep(), other.sweep(), t.services.schedules.sweep(), other.sweep()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3);
    await eventually(async () => expect((await received(customer)).sort()).toEqual(["race one", "race three", "race two"]));
    await t.outbox.drain();
    expect(await received(customer)).toHaveLength(3);
    for (const id of ids) expect((await stored(id)).status).toBe("sent");
    const rows = await messagesOf(ticket.id);
    expect(rows.filter((m) => m.body.startsWith("race"))).toHaveLength(3);
  });

  it("is `failed` with the outbox's reason when its message cannot be sent", async () => {
    const { customer, ticket } = await openTicket();
    const form = multipart([
      { name: "ticketId", value: String(ticket.id) },
      { name: "body", value: "the contract" },
      { name: "sendAt", value: inOneHour() },
      { name: "media", value: Buffer.from("%PDF-1.4\ncontract"), filename: "contract.pdf", type: "application/pdf" },
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/schedules",
      headers: { ...admin.auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Schedule;
    await t.services.storage.remove((await stored(created.id)).mediaPath as string);
    await t.outbox.stop();
    clock.advance(HOUR + 1000);
    await t.services.schedules.sweep();
    t.outbox.start();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await t.outbox.drain();
      clock.advance(60_000);
    }
    await t.outbox.drain();
    const failed = await t.app.inject({ method: "GET", url: `/api/schedules/${created.id}`, headers: admin.auth });
    expect(failed.json()).toMatchObject({ status: "failed", error: expect.stringMatching(/missing/i) });
    const listed = await t.app.inject({
      method: "GET",
      url: `/api/schedules?status=failed&ticketId=${ticket.id}`,
      headers: admin.auth,
    });
    expect(listed.json().schedules.map((s: Schedule) => s.id)).toEqual([created.id]);
    expect(await received(customer)).toEqual([]);
  });

  it("is `failed` with a reason when there is no connection to send from", async () => {
    const { ticket } = await openTicket();
    const created = await schedule({ ticketId: ticket.id, body: "nowhere to go", sendAt: inOneHour() });
    await database.db.update(scheduledMessages).set({ whatsappId: null }).where(eq(scheduledMessages.id, created.id));
    // The ticket lost its connection too (deleted), and there is no default one.
    await database.db.update(tickets).set({ whatsappId: null }).where(eq(tickets.id, ticket.id));
    await database.db.update(whatsapps).set({ isDefault: false });
    clock.advance(HOUR + 1000);
    await t.services.schedules.sweep();
    expect(await stored(created.id)).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/connection/i),
      messageId: null,
    });
  });
});
