import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BOT_WAIT,
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  phoneReceived,
  ticketRowOf,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { startTypebotFake, type TypebotFake } from "../../../test/typebot-fake/server.js";
import { botJobs, botSessions } from "../../db/schema.js";
import { NotBatchable, storeBatch } from "../messages/inbound-batch.js";

// Issue 23 §4: both inbound roads reach the bot — the one-message road (the queue menu's choice, a
// single queue) and the batch road, which hands a bot's connection to the one-message road.
let t: TestApp;
let typebot: TypebotFake;
let admin: TestUser;

beforeAll(async () => {
  typebot = await startTypebotFake();
  typebot.publish("roads", [
    { bubbles: [{ type: "text", text: "Sou o robô" }], input: { type: "text input", saveAs: "what" } },
    { bubbles: [{ type: "text", text: "Anotado" }], input: { type: "text input" } },
  ]);
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(async () => {
  await t.close();
  await typebot.close();
});

async function setBot(queueId: number) {
  const res = await t.app.inject({
    method: "PUT",
    url: `/api/queue/${queueId}/bot`,
    headers: admin.auth,
    payload: { kind: "typebot", baseUrl: typebot.url, publicId: "roads" },
  });
  expect(res.statusCode, res.body).toBe(200);
}
const ticketOf = (number: string) => ticketRowOf(t, number);
const held = async (ticketId: number) =>
  (await t.database.db.select().from(botSessions).where(eq(botSessions.ticketId, ticketId))).length > 0;

describe("inbound roads", () => {
  it("the queue menu's answer hands the conversation to the chosen queue's bot", async () => {
    const plain = await makeQueue(t);
    const withBot = await makeQueue(t);
    await setBot(withBot.id);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [plain.id, withBot.id], greetingMessage: "Escolha" });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, connection.id, from)).toHaveLength(1), BOT_WAIT);
    const ticket = await ticketOf(from);
    expect(await held(ticket!.id)).toBe(false);
    await customerWrites(t, admin, connection.id, { from, body: "2" });
    await eventually(
      async () => expect((await phoneReceived(t, admin, connection.id, from)).map((m) => m.body)).toContain("Sou o robô"),
      BOT_WAIT,
    );
    expect(await ticketOf(from)).toMatchObject({ queueId: withBot.id, status: "pending", userId: null });
    expect(await held(ticket!.id)).toBe(true);
  });

  it("a connection that batched takes the one-message road once its queue gets a bot", async () => {
    const queue = await makeQueue(t);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    // A first customer while the queue has no bot: the batch road, no bot.
    const first = customerNumber();
    await customerWrites(t, admin, connection.id, { from: first, body: "oi" });
    const before = await eventually(async () => {
      const row = await ticketOf(first);
      expect(row).toBeDefined();
      return row!;
    }, BOT_WAIT);
    expect(await held(before.id)).toBe(false);

    await setBot(queue.id);
    // The batch itself refuses a bot's connection (everything rolled back) ...
    const item = {
      wid: `W${Date.now()}`,
      chat: customerNumber(),
      isGroup: false,
      fromMe: false,
      timestamp: new Date(),
      type: "chat",
      body: "direct",
    };
    await expect(storeBatch(t.database.db, { now: () => new Date() }, connection.id, [item], 3600)).rejects.toThrow(
      new NotBatchable("bot", true),
    );
    // ... and the pipeline, its batch refused, stores it one message at a time for the bot.
    const second = customerNumber();
    await customerWrites(t, admin, connection.id, { from: second, body: "oi" });
    await eventually(
      async () => expect((await phoneReceived(t, admin, connection.id, second)).map((m) => m.body)).toContain("Sou o robô"),
      BOT_WAIT,
    );
    const ticket = await ticketOf(second);
    expect(await held(ticket!.id)).toBe(true);
  });

  it("an admin's take-over ends the session", async () => {
    const queue = await makeQueue(t);
    await setBot(queue.id);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, connection.id, from)).toHaveLength(1), BOT_WAIT);
    const ticket = await ticketOf(from);
    expect(await held(ticket!.id)).toBe(true);
    // Take over: the admin accepts it; the customer's next message reaches the admin, not the bot.
    const accepted = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket!.id}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    await customerWrites(t, admin, connection.id, { from, body: "ainda aí?" });
    await eventually(async () => expect(await held(ticket!.id)).toBe(false), BOT_WAIT);
    const jobs = await t.database.db.select().from(botJobs).where(eq(botJobs.ticketId, ticket!.id));
    expect(jobs).toHaveLength(0);
    expect(await ticketOf(from)).toMatchObject({ status: "open", userId: admin.id });
  });
});
