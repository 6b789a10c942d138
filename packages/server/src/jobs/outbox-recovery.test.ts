import type { Message, Ticket } from "@zapdesk/core";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection, phoneReceived } from "../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../test/factories.js";
import { createTestApp, manualClock, openTestDatabase, type TestApp } from "../../test/harness.js";
import { multipart } from "../../test/multipart.js";
import { messages, outbox } from "../db/schema.js";
import { MAX_ATTEMPTS } from "./outbox-worker.js";

/**
 * The outbox on a clock the test moves: a backoff or a claim's lock passes only when the test says
 * so. The clock runs an hour ahead of the wall clock so that messages stored now are already due.
 */
const clock = manualClock(new Date(Date.now() + 60 * 60 * 1000));
/** Longer than any backoff before the last attempt (32 s); short enough to keep the access token valid. */
const PAST_BACKOFF_MS = 60_000;

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  database = await openTestDatabase();
  t = await createTestApp({ database, clock });
  admin = await makeAdmin(t);
});
afterAll(async () => {
  await t?.close();
  await database?.close();
  await database?.drop();
});

async function openTicket(app: TestApp, whatsappId: number) {
  const customer = customerNumber();
  await customerWrites(app, admin, whatsappId, { from: customer, body: "hi" });
  const list = await app.app.inject({
    method: "GET",
    url: "/api/tickets",
    headers: admin.auth,
    query: { showAll: "true", searchParam: customer },
  });
  const ticket = (list.json() as { tickets: Ticket[] }).tickets[0];
  const opened = await app.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticket.id}`,
    headers: admin.auth,
    payload: { status: "open", userId: admin.id },
  });
  expect(opened.statusCode, opened.body).toBe(200);
  return { customer, ticket };
}

async function send(app: TestApp, ticketId: number, body: string) {
  const res = await app.app.inject({ method: "POST", url: `/api/messages/${ticketId}`, headers: admin.auth, payload: { body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Message;
}

const row = async (id: number) => (await database.db.select().from(messages).where(eq(messages.id, id)))[0];
const queued = async (id: number) => (await database.db.select().from(outbox).where(eq(outbox.messageId, id)))[0];
const bodies = async (app: TestApp, whatsappId: number, to: string) =>
  (await phoneReceived(app, admin, whatsappId, to)).map((m) => m.body);

describe("the outbox when a message cannot be built", () => {
  it("retries a message whose file is missing, then fails it; other tickets never wait, its own ticket keeps order", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const a = await openTicket(t, connection.id);
    const b = await openTicket(t, connection.id);
    await t.outbox.stop();
    const upload = multipart([
      { name: "body", value: "the contract" },
      { name: "medias", value: Buffer.from("%PDF-1.4\ncontract"), filename: "contract.pdf", type: "application/pdf" },
    ]);
    const withFile = await t.app.inject({
      method: "POST",
      url: `/api/messages/${a.ticket.id}`,
      headers: { ...admin.auth, ...upload.headers },
      payload: upload.payload,
    });
    expect(withFile.statusCode, withFile.body).toBe(201);
    const broken = withFile.json() as Message;
    const after = await send(t, a.ticket.id, "did you get it?");
    await send(t, b.ticket.id, "for the other customer");
    const stored = await row(broken.id);
    await t.services.storage.remove(stored.mediaPath as string);

    t.outbox.start();
    await t.outbox.drain();
    expect(await bodies(t, connection.id, b.customer)).toEqual(["for the other customer"]);
    expect(await queued(broken.id)).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/missing/i) });
    // WhatsApp shows messages in the order they arrive: the later one of the same chat waits.
    expect(await bodies(t, connection.id, a.customer)).toEqual([]);
    expect((await row(after.id)).ack).toBe(0);

    for (let attempt = 2; attempt < MAX_ATTEMPTS; attempt++) {
      clock.advance(PAST_BACKOFF_MS);
      await t.outbox.drain();
      expect(await queued(broken.id)).toMatchObject({ attempts: attempt });
    }
    expect((await row(broken.id)).ack).toBe(0);
    clock.advance(PAST_BACKOFF_MS);
    await t.outbox.drain();
    expect(await queued(broken.id)).toBeUndefined();
    const history = await t.app.inject({ method: "GET", url: `/api/messages/${a.ticket.id}`, headers: admin.auth });
    expect((history.json().messages as Message[]).find((m) => m.id === broken.id)).toMatchObject({
      ack: -1,
      error: { code: "MEDIA_MISSING", title: expect.any(String) },
    });
    await eventually(async () => expect(await bodies(t, connection.id, a.customer)).toEqual(["did you get it?"]));
  });

  it("sends at once, and in order, what a dead process had claimed", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const { customer, ticket } = await openTicket(t, connection.id);
    await t.outbox.stop();
    const held = [];
    for (const body of ["one", "two", "three"]) held.push((await send(t, ticket.id, body)).id);
    // What claim() leaves behind when its process dies before sending: a lock for a minute.
    await database.db
      .update(outbox)
      .set({ lockedUntil: new Date(clock.now().getTime() + 60_000), attempts: 1 })
      .where(inArray(outbox.messageId, held));
    const { jwtSecret, jwtRefreshSecret, encryptionKey } = t.config;
    await t.close();

    t = await createTestApp({ database, clock, config: { jwtSecret, jwtRefreshSecret, encryptionKey } });
    await eventually(() => expect(t.sessions.isConnected(connection.id)).toBe(true));
    await send(t, ticket.id, "four");
    await eventually(async () => expect(await bodies(t, connection.id, customer)).toEqual(["one", "two", "three", "four"]));
  });
});
