import type { BinaryNode } from "@whiskeysockets/baileys";
import { type Connection, type Message, OUTBOX_NOTICES } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChannelFactory } from "../../src/channels/channel.js";
import { messages, outbox } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { makeAdmin, makeContact, type TestUser } from "../factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../harness.js";
import { dispatch, loginAnswer, loginSuccess, MEX_QUERY, mexAnswer, mexNotification, mexQueryId } from "./real-stanzas.js";
import { localWhatsApp, OFFLINE_DRAINED, pairedDevice, simulatedCustomer } from "./real-whatsapp.js";

/**
 * A whole Zapdesk whose QR connection is the real makeWASocket: WhatsApp's restriction stanzas go
 * through Baileys' own handlers and the adapter to the stored connection, and the outbox holds the
 * automatic messages that would open a chat, lets the others go, and releases what it held when
 * the restriction lifts. The server never answers a send (sends end unconfirmed after 700 ms):
 * what matters here is which messages the outbox handed to the channel, and which it held.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>>;
let t: TestApp;
let admin: TestUser;
let whatsappId: number;
let ws: Awaited<ReturnType<typeof server.ws>>;
let customer: Awaited<ReturnType<typeof simulatedCustomer>>;
/** The numbers the outbox handed to the channel's send, in order. */
const handed: string[] = [];

const seconds = (ms: number) => Math.floor(ms / 1000);
const lockEnds = seconds(Date.now() + 3 * 3600_000);
const cycleEnds = seconds(Date.now() + 20 * 86400_000);

/** What WhatsApp answers when asked at login: no time-lock, a few new chats used this month. */
function answer(iq: BinaryNode): BinaryNode | undefined {
  const query = mexQueryId(iq);
  if (query === MEX_QUERY.reachoutTimelock) return mexAnswer(iq, { xwa2_fetch_account_reachout_timelock: { is_active: false } });
  if (query === MEX_QUERY.messageCappingInfo) {
    return mexAnswer(iq, {
      xwa2_message_capping_info: {
        total_quota: 250,
        used_quota: 3,
        capping_status: "NONE",
        cycle_end_timestamp: String(cycleEnds),
      },
    });
  }
  return loginAnswer(iq);
}

beforeAll(async () => {
  database = await openTestDatabase();
  // No keep-alive close mid-test: injected stanzas do not count as traffic for Baileys' ping check.
  server = await localWhatsApp({ channel: { sendTimeoutMs: 700 }, socket: { keepAliveIntervalMs: 600_000 }, answer });
  whatsappId = await insertConnection(database.db, "baileys");
  const device = await pairedDevice(database.db, whatsappId);
  customer = await simulatedCustomer(device, { jid: "5511977770001@s.whatsapp.net", lid: "61616161616161@lid", name: "Bia" });
  const baileys: ChannelFactory = (context) => {
    const session = server.factory(context);
    return {
      ...session,
      send: (message) => {
        handed.push(message.to);
        return session.send(message);
      },
    };
  };
  t = await createTestApp({ database, factories: { baileys } });
  admin = await makeAdmin(t);
  ws = await server.ws();
  dispatch(ws, OFFLINE_DRAINED);
  dispatch(ws, loginSuccess());
  await vi.waitFor(() => expect(t.sessions.isConnected(whatsappId)).toBe(true), { timeout: 10_000 });
  // What WhatsApp answered at login is stored before anything newer is injected.
  await vi.waitFor(async () => expect((await connection()).restriction?.newChatCap).not.toBeNull());
});
afterAll(async () => {
  await t?.close();
  await server?.close();
  await database?.close();
  await database?.drop();
});

async function connection(): Promise<Connection> {
  const res = await t.app.inject({ method: "GET", url: `/api/whatsapp/${whatsappId}`, headers: admin.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Connection;
}

async function schedule(payload: Record<string, unknown>): Promise<number> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/schedules",
    headers: admin.auth,
    payload: { body: "Promoção de hoje!", sendAt: new Date().toISOString(), ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json() as { id: number }).id;
  return vi.waitFor(
    async () => {
      const current = await t.app.inject({ method: "GET", url: `/api/schedules/${id}`, headers: admin.auth });
      const messageId = (current.json() as { messageId: number | null }).messageId;
      expect(messageId).not.toBeNull();
      return messageId as number;
    },
    { timeout: 5000 },
  );
}

const row = async (id: number) => (await database.db.select().from(messages).where(eq(messages.id, id)))[0];
const queued = async (id: number) => (await database.db.select().from(outbox).where(eq(outbox.messageId, id)))[0];
const went = (id: number) =>
  vi.waitFor(
    async () => {
      expect(await queued(id)).toBeUndefined();
      expect((await row(id)).errorCode).not.toBe(OUTBOX_NOTICES.held);
    },
    { timeout: 8000 },
  );

describe("a restricted QR number, end to end", () => {
  it("shows what WhatsApp answered at login on the connection", async () => {
    await vi.waitFor(async () =>
      expect((await connection()).restriction).toMatchObject({
        timeLock: null,
        newChatCap: { used: 3, total: 250, status: "NONE", cycleEndsAt: new Date(cycleEnds * 1000).toISOString() },
      }),
    );
  });

  it("stores the time-lock, holds an automatic message into a new chat, and lets the answers to a customer who wrote go", async () => {
    dispatch(
      ws,
      mexNotification("mex-lock", "NotificationUserReachoutTimelockUpdate", {
        xwa2_notify_account_reachout_timelock: {
          is_active: true,
          time_enforcement_ends: String(lockEnds),
          enforcement_type: "BIZ_QUALITY",
        },
      }),
    );
    await vi.waitFor(async () =>
      expect((await connection()).restriction?.timeLock).toMatchObject({
        enforcementType: "BIZ_QUALITY",
        endsAt: new Date(lockEnds * 1000).toISOString(),
      }),
    );

    // A scheduled message to someone who never wrote: held, visibly, and never handed to the channel.
    const stranger = await makeContact(t, { number: "5511988880001", name: "Nunca escreveu" });
    const held = await schedule({ contactId: stranger.id, whatsappId });
    await vi.waitFor(async () => expect((await queued(held))?.held).toBe(true));
    expect(await row(held)).toMatchObject({
      ack: 0,
      errorCode: OUTBOX_NOTICES.held,
      errorTitle: expect.stringMatching(/time-lock on new chats \(BIZ_QUALITY\)/),
    });
    const shown = await t.app.inject({ method: "GET", url: `/api/messages/${(await row(held)).ticketId}`, headers: admin.auth });
    expect((shown.json().messages as Message[]).find((m) => m.id === held)).toMatchObject({
      ack: 0,
      error: { code: OUTBOX_NOTICES.held },
    });

    // The customer writes (real Signal crypto): the agent's answer and a schedule in that chat go.
    dispatch(ws, await customer.message("3AWROTE0001", "oi, tudo bem?"));
    const ticketId = await vi.waitFor(
      async () => {
        const [stored] = await database.db.select().from(messages).where(eq(messages.wid, "3AWROTE0001"));
        expect(stored).toBeDefined();
        return stored.ticketId;
      },
      { timeout: 5000 },
    );
    const opened = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticketId}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const answered = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: admin.auth,
      payload: { body: "Olá Bia!" },
    });
    expect(answered.statusCode, answered.body).toBe(201);
    await went((answered.json() as Message).id);
    await went(await schedule({ ticketId }));

    expect((await queued(held))?.held).toBe(true);
    expect(handed).toEqual(["5511977770001", "5511977770001"]);
  });

  it("releases what it held when WhatsApp lifts the time-lock", async () => {
    const [held] = await database.db.select({ id: outbox.messageId }).from(outbox).where(eq(outbox.held, true));
    expect(held).toBeDefined();
    dispatch(
      ws,
      mexNotification("mex-unlock", "NotificationUserReachoutTimelockUpdate", {
        xwa2_notify_account_reachout_timelock: { is_active: false },
      }),
    );
    await vi.waitFor(async () => expect((await connection()).restriction?.timeLock).toBeNull());
    await went(held.id);
    // Handed to Baileys this time: its answer never came, like every send here.
    expect(handed).toContain("5511988880001");
    expect((await row(held.id)).errorTitle).toMatch(/WhatsApp Web did not answer/);
  });

  it("stores the monthly cap when WhatsApp says it is reached, and holds by it", async () => {
    dispatch(
      ws,
      mexNotification("mex-cap", "MessageCappingInfoNotification", {
        xwa2_notify_new_chat_messages_capping_info_update: {
          total_quota: 250,
          used_quota: 250,
          capping_status: "CAPPED",
          cycle_end_timestamp: String(cycleEnds),
        },
      }),
    );
    await vi.waitFor(async () =>
      expect((await connection()).restriction?.newChatCap).toMatchObject({ used: 250, total: 250, status: "CAPPED" }),
    );
    const other = await makeContact(t, { number: "5511988880002", name: "Outro" });
    const held = await schedule({ contactId: other.id, whatsappId });
    await vi.waitFor(async () => expect((await queued(held))?.held).toBe(true));
    expect((await row(held)).errorTitle).toMatch(/monthly cap on new chats is reached \(250 of 250\)/);
    expect(handed).not.toContain("5511988880002");
  });
});
