import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../../test/factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../../../test/harness.js";
import { countStatements, statementsOf } from "../../../test/statements.js";

// Issue 24: a lone customer message through the simulator API is at most seven statements, the
// signed-in user's lookup and the transaction's begin and commit included, in fewer round trips.
// This pins the numbers.
// Web push is configured here (the test env makes VAPID keys; production has it only when an admin
// sets them): "who has push on" is then one more read after commit, shared by the messages in
// flight (push.service.ts), counted apart.
let t: TestApp;
let admin: TestUser;
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  // One connection: the statements a message sends are parsed on the connection the next one gets
  // (a statement rides with another only where both are, db/pipeline.ts), whatever runs beside it.
  database = await openTestDatabase(1);
  t = await createTestApp({ database });
  admin = await makeAdmin(t);
  countStatements();
});
afterAll(async () => {
  await t.close();
  await database.close();
  await database.drop();
});

const isPushRead = (statement: string) => statement.includes(' from "push_subscriptions"');

/** The message's statements, apart from web push's read (at most one). */
async function messageStatements(work: () => Promise<unknown>): Promise<string[]> {
  const { statements } = await statementsOf(work);
  expect(statements.filter(isPushRead).length).toBeLessThanOrEqual(1);
  return statements.filter((s) => !isPushRead(s));
}

describe("a lone inbound message", () => {
  it("is at most seven statements, for a new customer and for the next message of a known one", async () => {
    const queue = await makeQueue(t);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    await customerWrites(t, admin, connection.id, { from: customerNumber(), body: "warm up" });

    const from = customerNumber();
    const first = await messageStatements(() =>
      customerWrites(t, admin, connection.id, { from, body: "hello", id: `${from}-1` }),
    );
    expect(first.length, first.join("\n---\n")).toBeLessThanOrEqual(7);
    const nextRun = await statementsOf(() => customerWrites(t, admin, connection.id, { from, body: "again", id: `${from}-2` }));
    const next = nextRun.statements.filter((s) => !isPushRead(s));
    expect(next.length, next.join("\n---\n")).toBeLessThanOrEqual(7);
    // Three ride with another statement (a round trip fewer each): BEGIN and the tickets statement
    // with the contacts' upsert, the tickets' update with the messages' insert (db/pipeline.ts,
    // db/begin-pipeline.ts). Every other statement is a round trip of its own.
    expect(next).toEqual(
      expect.arrayContaining([
        "begin",
        "inbound_batch_contacts",
        "inbound_batch_tickets",
        "inbound_batch_messages",
        "inbound_batch_touch_routed",
      ]),
    );
    expect(nextRun.roundTrips, nextRun.statements.join("\n---\n")).toBe(nextRun.statements.length - 3);

    // The same rules: one ticket in the connection's only queue, both messages once, unread 2.
    const redelivered = await statementsOf(() =>
      customerWrites(t, admin, connection.id, { from, body: "hello", id: `${from}-1` }),
    );
    expect(redelivered.result).toBe(`${from}-1`);
    const tickets = (await listTickets(t, admin, { status: "pending", showAll: "true" })).tickets.filter(
      (x) => x.contact.number === from,
    );
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ queueId: queue.id, unreadMessages: 2, lastMessage: "again" });
    const page = await ticketMessages(t, admin, tickets[0].id);
    expect(page.messages.map((m) => m.body)).toEqual(["hello", "again"]);
  });
});

describe("a lone inbound message's statements", () => {
  it("are sent by name (prepared once per connection), the transaction's begin and commit aside", async () => {
    // Issue 24 item 1: the batch's SQL is rendered once per process, not built for every message.
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [(await makeQueue(t)).id] });
    // The connection's first event writes its health (at most every few seconds), not the message's work.
    await customerWrites(t, admin, connection.id, { from: customerNumber(), body: "warm up" });
    const from = customerNumber();
    // Each measured message finds the inbound settings' one-second cache stale, so their read is in
    // the window too (on a loaded machine it lapses between messages anyway): it goes by name as well.
    const realNow = Date.now.bind(Date);
    let ahead = 0;
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + ahead);
    for (const id of [`${from}-1`, `${from}-2`]) {
      ahead += 5_000;
      const statements = await messageStatements(() => customerWrites(t, admin, connection.id, { from, body: "oi", id }));
      const built = statements.filter((s) => !/^(begin|commit)$/.test(s) && !/^[a-z_]+$/.test(s));
      expect(built, built.join("\n---\n")).toEqual([]);
      expect(statements).toEqual(
        expect.arrayContaining(["inbound_settings", "inbound_batch_contacts", "inbound_batch_messages"]),
      );
    }
    vi.mocked(Date.now).mockRestore();
    // The connection's health still records the event (connections.repo.ts's named update).
    await eventually(async () => {
      const res = await t.app.inject({ method: "GET", url: `/api/whatsapp/${connection.id}`, headers: admin.auth });
      expect(res.json().health.lastEventAt).not.toBeNull();
    });
  });

  it("send the signed-in users' cache no write probe: a customer's message changes no user", async () => {
    const connection = await makeSimulatorConnection(t, admin, {});
    const notify = vi.spyOn(t.database, "query");
    const probes = () => notify.mock.calls.filter(([text]) => String(text).includes("pg_notify")).length;
    // A read waits until the probes of earlier writes are back (the cache's barrier): none is running.
    await listTickets(t, admin, { status: "pending", showAll: "true" });
    const before = probes();
    await customerWrites(t, admin, connection.id, { from: customerNumber(), body: "oi" });
    expect(probes()).toBe(before);
    // An admin's write still sends one (the cache is listening), as its answer leaves.
    await listTickets(t, admin, { status: "pending", showAll: "true" });
    await makeSimulatorConnection(t, admin, {});
    expect(probes()).toBeGreaterThan(before);
  });
});

describe("a message on a connection with a menu", () => {
  it("goes straight down the one-message road once the connection's batch was refused for its menu", async () => {
    // Two queues: the connection's menu asks the customer to choose (issue 23 §3), one message at a time.
    const [sales, support] = [await makeQueue(t), await makeQueue(t)];
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [sales.id, support.id], greetingMessage: "Escolha:" });
    const from = customerNumber();
    const first = await messageStatements(() => customerWrites(t, admin, connection.id, { from, body: "oi" }));
    // The batch began, upserted the contacts, found the menu and rolled back.
    expect(first.filter((s) => /^rollback/i.test(s))).toHaveLength(1);
    const next = await messageStatements(() => customerWrites(t, admin, connection.id, { from, body: "1" }));
    expect(
      next.filter((s) => /^rollback/i.test(s)),
      next.join("\n---\n"),
    ).toHaveLength(0);
    expect(next.length).toBeLessThan(first.length);
    // The menu still did its work: the answer "1" chose the first queue.
    const ticket = (await listTickets(t, admin, { status: "pending", showAll: "true" })).tickets.find(
      (x) => x.contact.number === from,
    );
    expect(ticket?.queueId).toBe(sales.id);
  });
});
