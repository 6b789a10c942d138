import type { BinaryNode } from "@whiskeysockets/baileys";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { messages, tickets } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { createTestApp, openTestDatabase, type TestApp } from "../harness.js";
import { dispatch } from "./real-stanzas.js";
import { localWhatsApp, OFFLINE_DRAINED, OWN_PHONE, pairedDevice, simulatedCustomer } from "./real-whatsapp.js";

/**
 * Issue 18 item 6 in a chat WhatsApp addresses by LID (most chats since its 2026 LID migration):
 * the business phone's read comes from our own LID, naming the customer's LID as `recipient`.
 * Baileys matches it against `me.lid` and emits READ for `fromMe: false` keys, and the unread
 * count drops as in a chat addressed by number (real-read.test.ts).
 */
const LID_CUSTOMER = { jid: "77775555666677@lid", lid: "77775555666677@lid", name: "Caio" };

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>>;
let t: TestApp;
let whatsappId: number;
let customer: Awaited<ReturnType<typeof simulatedCustomer>>;
let ws: Awaited<ReturnType<typeof server.ws>>;

beforeAll(async () => {
  database = await openTestDatabase();
  server = await localWhatsApp();
  whatsappId = await insertConnection(database.db, "baileys");
  customer = await simulatedCustomer(await pairedDevice(database.db, whatsappId), LID_CUSTOMER);
  t = await createTestApp({ database, factories: { baileys: server.factory } });
  ws = await server.ws();
  dispatch(ws, OFFLINE_DRAINED);
});
afterAll(async () => {
  await t?.close();
  await server?.close();
  await database?.close();
  await database?.drop();
});

const stored = (ids: string[]) =>
  database.db
    .select({ read: messages.read, ticketId: messages.ticketId })
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), inArray(messages.wid, ids)))
    .orderBy(asc(messages.wid));
const unreadOf = async (ticketId: number) =>
  (await database.db.select({ n: tickets.unreadMessages }).from(tickets).where(eq(tickets.id, ticketId)))[0].n;

describe("reading a LID-addressed chat on the business phone", () => {
  it("the read from our own LID clears what it read", async () => {
    const ids = ["3ALIDREAD0001", "3ALIDREAD0002"];
    const now = Math.floor(Date.now() / 1000);
    for (const [i, id] of ids.entries()) dispatch(ws, await customer.message(id, `oi ${i + 1}`, { at: now - 20 + 10 * i }));
    const rows = await vi.waitFor(
      async () => {
        const found = await stored(ids);
        expect(found).toHaveLength(2);
        return found;
      },
      { timeout: 5000 },
    );
    expect(await unreadOf(rows[0].ticketId)).toBe(2);

    const read: BinaryNode = {
      tag: "receipt",
      attrs: { from: OWN_PHONE.lid, recipient: LID_CUSTOMER.jid, id: ids[0], type: "read", t: String(now) },
    };
    dispatch(ws, read);
    await vi.waitFor(async () => expect(await unreadOf(rows[0].ticketId)).toBe(1));
    expect((await stored(ids)).map((r) => r.read)).toEqual([true, false]);
  });
});
