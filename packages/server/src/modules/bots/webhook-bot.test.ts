import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
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
import { botJobs, botSessions } from "../../db/schema.js";

// Issue 23 §4: the generic webhook bot (n8n and the like): each customer message POSTed signed, the
// bot answering and handing over through the API token.
let t: TestApp;
let admin: TestUser;
let apiToken: string;
let receiver: Server;
let url: string;
const received: { path: string; raw: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", raw: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
      res.writeHead(req.url === "/fail" ? 500 : 200).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await createTestApp({ botTimeoutMs: 1000 });
  admin = await makeAdmin(t);
  const allowed = await t.app.inject({
    method: "PUT",
    url: "/api/settings/webhookAllowPrivate",
    headers: admin.auth,
    payload: { value: "enabled" },
  });
  expect(allowed.statusCode).toBe(200);
  const settings = (await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth })).json() as {
    key: string;
    value: string;
  }[];
  apiToken = settings.find((s) => s.key === "userApiToken")?.value ?? "";
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function webhookQueue(path: string) {
  const queue = await makeQueue(t);
  const res = await t.app.inject({
    method: "PUT",
    url: `/api/queue/${queue.id}/bot`,
    headers: admin.auth,
    payload: { kind: "webhook", webhookUrl: `${url}${path}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
  return { queueId: queue.id, whatsappId: connection.id, secret: res.json().secret as string };
}
const ticketOf = (number: string) => ticketRowOf(t, number);
const withToken = (path: string, payload: object, token = apiToken) =>
  t.app.inject({ method: "POST", url: path, headers: { authorization: `Bearer ${token}` }, payload });

describe("webhook bot", () => {
  it("posts each customer message signed, takes its answers and its handover through the API token", async () => {
    const { whatsappId, secret } = await webhookQueue("/bot");
    expect(secret).toMatch(/^whsec_/);
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, name: "João", body: "quero meu boleto" });
    const post = await eventually(() => {
      const found = received.find((r) => r.path === "/bot" && r.raw.includes("quero meu boleto"));
      expect(found).toBeDefined();
      return found!;
    }, BOT_WAIT);
    expect(post.headers["x-zapdesk-signature"]).toBe(`sha256=${createHmac("sha256", secret).update(post.raw).digest("hex")}`);
    const payload = JSON.parse(post.raw);
    expect(payload).toMatchObject({
      event: "bot.message",
      // No PUBLIC_URL here: no link to a file (a text has none anyway).
      data: { contact: { number: from }, message: { body: "quero meu boleto", type: "chat", mediaUrl: null } },
    });
    const ticketId = payload.data.ticketId as number;

    // The secret is shown once: a later save keeps it and does not return it.
    const again = await t.app.inject({
      method: "GET",
      url: `/api/queue/${payload.data.queueId}/bot`,
      headers: admin.auth,
    });
    expect(again.json().secret).toBeUndefined();

    const answer = await withToken(`/api/tickets/${ticketId}/bot/messages`, { body: "Segue seu boleto" });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ fromMe: true, fromBot: true, automation: "bot", body: "Segue seu boleto" });
    await eventually(
      async () => expect((await phoneReceived(t, admin, whatsappId, from)).map((m) => m.body)).toEqual(["Segue seu boleto"]),
      BOT_WAIT,
    );

    expect((await withToken(`/api/tickets/${ticketId}/bot/handover`, { to: "close" }, "wrong")).statusCode).toBe(403);
    const handed = await withToken(`/api/tickets/${ticketId}/bot/handover`, { to: "close" });
    expect(handed.statusCode, handed.body).toBe(200);
    expect(handed.json()).toEqual({ ticketId, to: "close" });
    expect(await ticketOf(from)).toMatchObject({ status: "closed" });
    const twice = await withToken(`/api/tickets/${ticketId}/bot/handover`, { to: "queue" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe("ERR_BOT_NOT_HOLDING");
    const late = await withToken(`/api/tickets/${ticketId}/bot/messages`, { body: "oi" });
    expect(late.json().error).toBe("ERR_BOT_NOT_HOLDING");
    expect((await withToken("/api/tickets/999999/bot/handover", { to: "queue" })).json().error).toBe("ERR_NO_TICKET_FOUND");
  });

  it("hands the ticket to its queue when the bot's endpoint fails", async () => {
    const { whatsappId, queueId } = await webhookQueue("/fail");
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "alguém?" });
    await eventually(() => expect(received.some((r) => r.path === "/fail" && r.raw.includes("alguém?"))).toBe(true), BOT_WAIT);
    const ticket = await eventually(async () => {
      const row = await ticketOf(from);
      expect(row).toBeDefined();
      const held = await t.database.db.select().from(botSessions).where(eq(botSessions.ticketId, row!.id));
      expect(held).toHaveLength(0);
      return row!;
    }, BOT_WAIT);
    expect(ticket).toMatchObject({ status: "pending", queueId, userId: null });
  });

  it("a person's move and the bot's handover of one ticket at once: one wins, the other is told, nothing deadlocks", async () => {
    const { whatsappId, queueId } = await webhookQueue("/quiet");
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    const ticket = await eventually(async () => {
      const row = await ticketOf(from);
      expect(row).toBeDefined();
      expect(await t.database.db.select().from(botSessions).where(eq(botSessions.ticketId, row!.id))).toHaveLength(1);
      // The bot's turn for "oi" is over (its job gone): nothing else will wait on the ticket below.
      expect(await t.database.db.select().from(botJobs).where(eq(botJobs.ticketId, row!.id))).toHaveLength(0);
      return row!;
    }, BOT_WAIT);
    const other = await makeQueue(t);
    const db = t.database.db;
    const waiting = async () => {
      const result = await db.execute(sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`);
      return (result as unknown as { rows: { n: number }[] }).rows[0].n;
    };
    // Both requests queue behind a lock on the ticket, the person's first. Each must take the ticket
    // before the session: a handover that took the session first would wait for the ticket the
    // person's move holds while that move waits for the session (PostgreSQL cancels one: a 500).
    let move: Promise<{ statusCode: number; body: string }> | undefined;
    let handover: Promise<{ statusCode: number; body: string }> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select id from tickets where id = ${ticket.id} for update`);
      move = t.app.inject({
        method: "PUT",
        url: `/api/tickets/${ticket.id}`,
        headers: admin.auth,
        payload: { status: "pending", queueId: other.id },
      });
      await eventually(async () => expect(await waiting()).toBe(1));
      handover = withToken(`/api/tickets/${ticket.id}/bot/handover`, { to: "queue" });
      await eventually(async () => expect(await waiting()).toBe(2));
    });
    const [moved, handed] = await Promise.all([move!, handover!]);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(handed.statusCode, handed.body).toBe(409);
    expect(JSON.parse(handed.body).error).toBe("ERR_BOT_NOT_HOLDING");
    expect(await ticketOf(from)).toMatchObject({ status: "pending", queueId: other.id, userId: null });
    expect(queueId).not.toBe(other.id);
  });

  it("the handover route is in the API documentation", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as { paths: Record<string, unknown> };
    expect(JSON.stringify(doc.paths["/api/tickets/{id}/bot/handover"])).toContain("userApiToken");
    expect(doc.paths["/api/queue/{id}/bot"]).toBeDefined();
  });
});
