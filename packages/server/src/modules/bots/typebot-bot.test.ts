import type { BotConfig } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BOT_WAIT,
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  phoneReceived,
  ticketMessages,
  ticketRowOf,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { type Step, startTypebotFake, type TypebotFake } from "../../../test/typebot-fake/server.js";
import { botSessions, contactExtraInfo } from "../../db/schema.js";

// Issue 23 §4: a queue's Typebot holds new conversations, renders its answers as WhatsApp messages,
// reads variables in and out, and hands over (variable, words, end of flow, timeout, failure).
let t: TestApp;
let typebot: TypebotFake;
let admin: TestUser;
const API_TOKEN = "tb-secret-token";

beforeAll(async () => {
  typebot = await startTypebotFake({ apiToken: API_TOKEN });
  t = await createTestApp({ botTimeoutMs: 1000 });
  admin = await makeAdmin(t);
  // The fake's media are on 127.0.0.1, as a self-hosted Typebot's may be on the team's network.
  await allowPrivateTargets(true);
});

async function allowPrivateTargets(on: boolean) {
  const res = await t.app.inject({
    method: "PUT",
    url: "/api/settings/webhookAllowPrivate",
    headers: admin.auth,
    payload: { value: on ? "enabled" : "disabled" },
  });
  expect(res.statusCode, res.body).toBe(200);
}
afterAll(async () => {
  await t.close();
  await typebot.close();
});

let flowCounter = 0;
/** A queue with its own connection and a Typebot flow of its own. */
async function botQueue(steps: Step[], config: Partial<Record<string, unknown>> = {}) {
  flowCounter += 1;
  const publicId = `flow-${flowCounter}`;
  typebot.publish(publicId, steps);
  const queue = await makeQueue(t);
  const res = await t.app.inject({
    method: "PUT",
    url: `/api/queue/${queue.id}/bot`,
    headers: admin.auth,
    payload: { kind: "typebot", baseUrl: typebot.url, publicId, apiToken: API_TOKEN, ...config },
  });
  expect(res.statusCode, res.body).toBe(200);
  const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
  return { queueId: queue.id, whatsappId: connection.id, publicId, config: res.json() as BotConfig };
}

const ticketOf = (number: string) => ticketRowOf(t, number);
const sessionOf = async (ticketId: number) =>
  (await t.database.db.select().from(botSessions).where(eq(botSessions.ticketId, ticketId)))[0];

const ORDER_FLOW: Step[] = [
  {
    bubbles: [
      {
        type: "text",
        text: [{ text: "Olá " }, { text: "{{Name}}", bold: true }, { text: ", tudo " }, { text: "bem?", italic: true }],
      },
    ],
    input: { type: "choice input", items: ["Pedidos", "Financeiro"], saveAs: "topic" },
  },
  { bubbles: [{ type: "text", text: "Qual o número do pedido?" }], input: { type: "text input", saveAs: "order" } },
  { bubbles: [{ type: "text", text: "Obrigado!" }], set: { zapdesk_handover: "queue" } },
];

describe("Typebot", () => {
  it("starts a session with the contact's variables, renders text, image and choices, and maps a numbered answer", async () => {
    const flow = ORDER_FLOW.map((s, i) =>
      i === 0 ? { ...s, bubbles: [s.bubbles[0], { type: "image" as const, url: typebot.mediaUrl("logo.png") }] } : s,
    );
    const { whatsappId, publicId, queueId } = await botQueue(flow, { variablesIn: [{ field: "name", variable: "Name" }] });
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, name: "Maria", body: "oi" });

    const sent = await eventually(async () => {
      const messages = await phoneReceived(t, admin, whatsappId, from);
      expect(messages).toHaveLength(3);
      return messages;
    }, BOT_WAIT);
    expect(sent[0].body).toBe("Olá *Maria*, tudo _bem?_");
    expect(sent[1].media?.mimetype).toBe("image/png");
    expect(sent[2].body).toBe("*1* - Pedidos\n*2* - Financeiro");
    const start = typebot.requests.find((r) => r.path === `/api/v1/typebots/${publicId}/startChat`);
    expect(start?.body).toMatchObject({ prefilledVariables: { Name: "Maria" } });

    // The ticket is the bot's: not handed to agents.
    const ticket = await ticketOf(from);
    expect(ticket?.status).toBe("pending");
    const session = await sessionOf(ticket!.id);
    expect(session?.sessionId).toBeTruthy();
    expect(session?.choices).toEqual(["Pedidos", "Financeiro"]);
    // Agents of the queue do not see it waiting; admins do (to take over).
    const agent = await makeUser(t, { queueIds: [queueId] });
    expect((await listTickets(t, agent, { status: "pending" })).tickets.map((x) => x.id)).not.toContain(ticket!.id);
    expect((await listTickets(t, admin, { status: "pending", showAll: "true" })).tickets.map((x) => x.id)).toContain(ticket!.id);

    // "2" is the second choice's text for Typebot.
    await customerWrites(t, admin, whatsappId, { from, body: "2" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(4), BOT_WAIT);
    const cont = typebot.requests.filter((r) => r.path === `/api/v1/sessions/${session!.sessionId}/continueChat`);
    expect(cont.at(-1)?.body).toEqual({ message: { type: "text", text: "Financeiro" } });
    expect(typebot.variablesOf(session!.sessionId!)).toMatchObject({ topic: "Financeiro" });

    // The agent sees the bot's conversation: bot messages are outbound and marked as the bot's.
    const { messages } = await ticketMessages(t, admin, ticket!.id);
    const bots = messages.filter((m) => m.fromMe);
    expect(bots.length).toBe(4);
    expect(bots.every((m) => m.fromBot && m.automation === "bot")).toBe(true);
  });

  it("hands over by the zapdesk_handover variable and writes variables out into contact fields", async () => {
    const { whatsappId, queueId } = await botQueue(ORDER_FLOW, { variablesOut: [{ field: "Pedido", variable: "order" }] });
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(2), BOT_WAIT);
    await customerWrites(t, admin, whatsappId, { from, body: "1" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(3), BOT_WAIT);
    await customerWrites(t, admin, whatsappId, { from, body: "A-778" });
    const ticket = await ticketOf(from);
    await eventually(async () => expect(await sessionOf(ticket!.id)).toBeUndefined(), BOT_WAIT);
    const after = await ticketOf(from);
    expect(after).toMatchObject({ status: "pending", userId: null, queueId });
    const fields = await t.database.db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, after!.contactId));
    expect(fields.map((f) => [f.name, f.value])).toEqual([["Pedido", "A-778"]]);
    // The bot's last answer is committed with the hand-over; the outbox sends it just after.
    await eventually(
      async () => expect((await phoneReceived(t, admin, whatsappId, from)).at(-1)?.body).toBe("Obrigado!"),
      BOT_WAIT,
    );
  });

  it("hands over to an agent named by the flow", async () => {
    const agentQueue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [agentQueue.id] });
    const { whatsappId } = await botQueue([
      { bubbles: [{ type: "text", text: "Um momento" }], set: { zapdesk_handover: `agent:${agent.id}` } },
    ]);
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    await eventually(async () => expect(await ticketOf(from)).toMatchObject({ status: "open", userId: agent.id }), BOT_WAIT);
  });

  it("hands over when the customer asks for a person, without asking the bot", async () => {
    const { whatsappId, publicId } = await botQueue(ORDER_FLOW);
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(2), BOT_WAIT);
    const ticket = await ticketOf(from);
    const sessionId = (await sessionOf(ticket!.id))?.sessionId;
    await customerWrites(t, admin, whatsappId, { from, body: "Atendente!" });
    await eventually(async () => expect(await sessionOf(ticket!.id)).toBeUndefined(), BOT_WAIT);
    expect(typebot.requests.some((r) => r.path === `/api/v1/sessions/${sessionId}/continueChat`)).toBe(false);
    expect(publicId).toBeTruthy();
    // Now an ordinary waiting ticket: the next message reaches agents, not the bot.
    await customerWrites(t, admin, whatsappId, { from, body: "alô?" });
    const { tickets: waiting } = await listTickets(t, admin, { status: "pending" });
    expect(waiting.some((w) => w.id === ticket!.id)).toBe(true);
  });

  it("hands over at the end of a flow with no input", async () => {
    const { whatsappId, queueId } = await botQueue([{ bubbles: [{ type: "text", text: "Vou te passar para a equipe" }] }]);
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(1), BOT_WAIT);
    const ticket = await ticketOf(from);
    await eventually(async () => expect(await sessionOf(ticket!.id)).toBeUndefined(), BOT_WAIT);
    expect(await ticketOf(from)).toMatchObject({ status: "pending", queueId });
  });

  it("hands over to the queue at once when Typebot fails, keeping the customer's message", async () => {
    const { whatsappId, queueId } = await botQueue(ORDER_FLOW);
    const from = customerNumber();
    typebot.failNext(500);
    await customerWrites(t, admin, whatsappId, { from, body: "preciso de ajuda" });
    const ticket = await eventually(async () => {
      const row = await ticketOf(from);
      expect(row).toBeDefined();
      expect(await sessionOf(row!.id)).toBeUndefined();
      return row!;
    }, BOT_WAIT);
    expect(ticket).toMatchObject({ status: "pending", queueId, userId: null });
    const { messages } = await ticketMessages(t, admin, ticket.id);
    expect(messages.map((m) => m.body)).toContain("preciso de ajuda");
  });

  it("refuses a flow's media on a private address unless the administrator allows them, handing over", async () => {
    const flow = ORDER_FLOW.map((s, i) =>
      i === 0 ? { ...s, bubbles: [s.bubbles[0], { type: "image" as const, url: typebot.mediaUrl("logo.png") }] } : s,
    );
    const { whatsappId, queueId } = await botQueue(flow);
    const fetches = () => typebot.requests.filter((r) => r.path === "/media/logo.png").length;
    const fetchedBefore = fetches();
    await allowPrivateTargets(false);
    try {
      const from = customerNumber();
      await customerWrites(t, admin, whatsappId, { from, body: "oi" });
      const ticket = await eventually(async () => {
        const row = await ticketOf(from);
        expect(row).toBeDefined();
        expect(await sessionOf(row!.id)).toBeUndefined();
        return row!;
      }, BOT_WAIT);
      expect(ticket).toMatchObject({ status: "pending", queueId, userId: null });
      expect(fetches()).toBe(fetchedBefore);
    } finally {
      await allowPrivateTargets(true);
    }
  });

  it("starts a new session when Typebot's one expired", async () => {
    const { whatsappId, publicId } = await botQueue(ORDER_FLOW);
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(2), BOT_WAIT);
    const ticket = await ticketOf(from);
    const first = (await sessionOf(ticket!.id))?.sessionId;
    typebot.expire(first!);
    await customerWrites(t, admin, whatsappId, { from, body: "1" });
    await eventually(async () => {
      const session = await sessionOf(ticket!.id);
      expect(session?.sessionId).toBeTruthy();
      expect(session?.sessionId).not.toBe(first);
    }, BOT_WAIT);
    expect(typebot.requests.filter((r) => r.path === `/api/v1/typebots/${publicId}/startChat`)).toHaveLength(2);
  });

  it("hands an idle session to the queue once its timeout passed, exactly once", async () => {
    const { whatsappId } = await botQueue(ORDER_FLOW, { timeoutMinutes: 1 });
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(2), BOT_WAIT);
    const ticket = await ticketOf(from);
    expect(await t.bots.worker.sweep()).toBe(0);
    // Two minutes of silence (moved back rather than waited).
    await t.database.db
      .update(botSessions)
      .set({ lastActivityAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(botSessions.ticketId, ticket!.id));
    const swept = await Promise.all([t.bots.worker.sweep(), t.bots.worker.sweep()]);
    expect(await sessionOf(ticket!.id)).toBeUndefined();
    expect(swept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
    expect(await ticketOf(from)).toMatchObject({ status: "pending", userId: null });
  });
});

describe("the queue's bot settings", () => {
  it("never returns the API token, and is for those who manage queues", async () => {
    const { queueId, config } = await botQueue(ORDER_FLOW);
    expect(config.apiToken).toBe("set");
    expect(JSON.stringify(config)).not.toContain(API_TOKEN);
    const got = await t.app.inject({ method: "GET", url: `/api/queue/${queueId}/bot`, headers: admin.auth });
    expect(got.json()).toMatchObject({ kind: "typebot", apiToken: "set" });
    expect(got.body).not.toContain(API_TOKEN);
    const agent = await makeUser(t, { queueIds: [queueId] });
    const refused = await t.app.inject({ method: "GET", url: `/api/queue/${queueId}/bot`, headers: agent.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("ERR_NO_PERMISSION");
    const missing = await t.app.inject({ method: "DELETE", url: "/api/queue/999999/bot", headers: admin.auth });
    expect(missing.json().error).toBe("ERR_NO_QUEUE_FOUND");
    const removed = await t.app.inject({ method: "DELETE", url: `/api/queue/${queueId}/bot`, headers: admin.auth });
    expect(removed.statusCode).toBe(200);
    const again = await t.app.inject({ method: "DELETE", url: `/api/queue/${queueId}/bot`, headers: admin.auth });
    expect(again.json().error).toBe("ERR_NO_BOT_FOUND");
  });
});
