import type { BinaryNode } from "@whiskeysockets/baileys";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { messages, tickets } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { makeAdmin } from "../factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../harness.js";
import { connectAs, listen, type RecordingSocket } from "../sockets.js";
import { dispatch } from "./real-stanzas.js";
import { localWhatsApp, OFFLINE_DRAINED, OWN_PHONE, pairedDevice, simulatedCustomer } from "./real-whatsapp.js";

/**
 * The business phone reads a chat: WhatsApp tells our linked device with a `read` receipt from our
 * own account naming the customer's messages (the chat as `recipient`). Baileys' handleReceipt turns
 * it into `messages.update` with status READ for `fromMe: false` keys; Zapdesk clears the unread.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>>;
let t: TestApp;
let whatsappId: number;
let customer: Awaited<ReturnType<typeof simulatedCustomer>>;
let ws: Awaited<ReturnType<typeof server.ws>>;
let agent: RecordingSocket;
const opened: Socket[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  server = await localWhatsApp();
  whatsappId = await insertConnection(database.db, "baileys");
  customer = await simulatedCustomer(await pairedDevice(database.db, whatsappId));
  t = await createTestApp({ database, factories: { baileys: server.factory } });
  agent = await connectAs(await listen(t), await makeAdmin(t), opened);
  ws = await server.ws();
  dispatch(ws, OFFLINE_DRAINED);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t?.close();
  await server?.close();
  await database?.close();
  await database?.drop();
});

/** What the server sends our device when the business phone read these messages of a chat. */
function readOnPhone(chat: string, ids: string[]): BinaryNode {
  const [first, ...rest] = ids;
  return {
    tag: "receipt",
    attrs: { from: OWN_PHONE.jid, recipient: chat, id: first, type: "read", t: String(Math.floor(Date.now() / 1000)) },
    content: rest.length ? [{ tag: "list", attrs: {}, content: rest.map((id) => ({ tag: "item", attrs: { id } })) }] : undefined,
  };
}

const stored = (ids: string[]) =>
  database.db
    .select({ wid: messages.wid, read: messages.read, ticketId: messages.ticketId })
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), inArray(messages.wid, ids)))
    .orderBy(asc(messages.wid));
const unreadOf = async (ticketId: number) =>
  (await database.db.select({ n: tickets.unreadMessages }).from(tickets).where(eq(tickets.id, ticketId)))[0].n;

describe("reading a chat on the business phone", () => {
  it("marks the messages read up to the one read and leaves unread only what came after; agents see the count change", async () => {
    const ids = ["3AREADME0001", "3AREADME0002", "3AREADME0003"];
    const now = Math.floor(Date.now() / 1000);
    for (const [i, id] of ids.entries()) {
      dispatch(ws, await customer.message(id, `mensagem ${i + 1}`, { at: now - 30 + 10 * i }));
    }
    const rows = await vi.waitFor(
      async () => {
        const found = await stored(ids);
        expect(found).toHaveLength(3);
        return found;
      },
      { timeout: 5000 },
    );
    const ticketId = rows[0].ticketId;
    expect(await unreadOf(ticketId)).toBe(3);

    // The phone opened the chat when two messages had arrived.
    dispatch(ws, readOnPhone(customer.jid, ids.slice(0, 2)));
    await vi.waitFor(async () => expect(await unreadOf(ticketId)).toBe(1));
    expect((await stored(ids)).map((r) => r.read)).toEqual([true, true, false]);
    await vi.waitFor(() =>
      expect(
        agent.received
          .filter((r) => r.event === "ticket")
          .map((r) => r.payload as { action: string; ticket?: { id: number; unreadMessages: number } })
          .some((p) => p.action === "update" && p.ticket?.id === ticketId && p.ticket.unreadMessages === 1),
      ).toBe(true),
    );

    // Then the last one too.
    dispatch(ws, readOnPhone(customer.jid, [ids[2]]));
    await vi.waitFor(async () => expect(await unreadOf(ticketId)).toBe(0));
    expect((await stored(ids)).map((r) => r.read)).toEqual([true, true, true]);
  });
});
