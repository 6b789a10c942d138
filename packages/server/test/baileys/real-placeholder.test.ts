import type { BinaryNode } from "@whiskeysockets/baileys";
import { PLACEHOLDER_PREVIEW } from "@zapdesk/core";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contacts, messages, tickets } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { createTestApp, openTestDatabase, type TestApp } from "../harness.js";
import { dispatch } from "./real-stanzas.js";
import { localWhatsApp, OFFLINE_DRAINED, OWN_PHONE, ownPhone, pairedDevice, simulatedCustomer } from "./real-whatsapp.js";

/**
 * Messages our linked device cannot decrypt, with real Signal crypto and the real makeWASocket:
 * Baileys upserts a CIPHERTEXT stub and asks for the message again (a retry receipt to the sender,
 * a placeholder resend request to our phone); the pipeline stores a placeholder, and the real copy
 * that follows under the same id replaces it.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>>;
let t: TestApp;
let whatsappId: number;
let customer: Awaited<ReturnType<typeof simulatedCustomer>>;
let phone: Awaited<ReturnType<typeof ownPhone>>;
let ws: Awaited<ReturnType<typeof server.ws>>;

beforeAll(async () => {
  database = await openTestDatabase();
  server = await localWhatsApp();
  whatsappId = await insertConnection(database.db, "baileys");
  customer = await simulatedCustomer(await pairedDevice(database.db, whatsappId));
  phone = await ownPhone(database.db, whatsappId);
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

const rowOf = async (wid: string) =>
  (
    await database.db
      .select()
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)))
  )[0];
const ticketOf = async (id: number) => (await database.db.select().from(tickets).where(eq(tickets.id, id)))[0];
const sentTo = async (predicate: (node: BinaryNode) => boolean) => (await server.sentNodes()).filter(predicate);

/** What our device asked the phone, by stanza id: each peer message decrypted once, in order. */
const asked = new Map<string, string[]>();
async function requestFor(messageId: string): Promise<BinaryNode | undefined> {
  const peer = await sentTo((n) => n.tag === "message" && n.attrs.to === OWN_PHONE.jid && n.attrs.category === "peer");
  for (const node of peer) {
    if (asked.has(node.attrs.id)) continue;
    const operation = (await phone.decrypt(node)).protocolMessage?.peerDataOperationRequestMessage;
    asked.set(node.attrs.id, operation?.placeholderMessageResendRequest?.map((r) => r.messageKey?.id ?? "") ?? []);
  }
  return peer.find((node) => asked.get(node.attrs.id)?.includes(messageId));
}

describe("a customer message our device cannot decrypt", () => {
  it("a corrupted pkmsg: placeholder, ticket and unread at once, a retry receipt; the retried copy fills the same row", async () => {
    // The customer's very first message, its MAC broken on the way.
    dispatch(ws, await customer.message("3ABADMAC0001", "oi, vi o anúncio", { corrupt: true }));
    const placeholder = await vi.waitFor(
      async () => {
        const row = await rowOf("3ABADMAC0001");
        expect(row).toBeDefined();
        return row;
      },
      { timeout: 5000 },
    );
    expect(placeholder).toMatchObject({ mediaType: "placeholder", body: "", read: false, fromMe: false });
    expect(placeholder.raw).toMatchObject({ messageStubType: 2, messageStubParameters: ["Bad MAC"] });
    const [contact] = await database.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, placeholder.contactId as number));
    expect(contact).toMatchObject({ number: "5511999990001", name: "Ana" });
    expect(await ticketOf(placeholder.ticketId)).toMatchObject({
      status: "pending",
      unreadMessages: 1,
      lastMessage: PLACEHOLDER_PREVIEW,
    });
    // Baileys asked the sender to encrypt it again.
    await vi.waitFor(async () =>
      expect(await sentTo((n) => n.tag === "receipt" && n.attrs.type === "retry" && n.attrs.id === "3ABADMAC0001")).toHaveLength(
        1,
      ),
    );

    // The sender's retry: the same id, encrypted again.
    dispatch(ws, await customer.message("3ABADMAC0001", "oi, vi o anúncio"));
    await vi.waitFor(async () => expect(await rowOf("3ABADMAC0001")).toMatchObject({ body: "oi, vi o anúncio" }), {
      timeout: 5000,
    });
    expect(await rowOf("3ABADMAC0001")).toMatchObject({ id: placeholder.id, mediaType: "chat", read: false });
    expect(await ticketOf(placeholder.ticketId)).toMatchObject({ unreadMessages: 1, lastMessage: "oi, vi o anúncio" });
  });

  it("'Message absent from node' (an ad lead): our phone is asked for it, and its answer (a requestId upsert) fills the row", async () => {
    const upserts: { type: string; ids: string[] }[] = [];
    server.sockets
      .at(-1)
      ?.ev.on("messages.upsert", (u) => upserts.push({ type: u.type, ids: u.messages.map((m) => m.key.id as string) }));
    dispatch(ws, customer.absent("3AADLEAD0001"));
    const placeholder = await vi.waitFor(
      async () => {
        const row = await rowOf("3AADLEAD0001");
        expect(row).toMatchObject({ mediaType: "placeholder" });
        return row;
      },
      { timeout: 5000 },
    );
    expect(placeholder.raw).toMatchObject({ messageStubParameters: ["Message absent from node"] });

    // Baileys sends our phone a peer data operation naming the message (after its 2 s grace period).
    const request = await vi.waitFor(
      async () => {
        const node = await requestFor("3AADLEAD0001");
        expect(node).toBeDefined();
        return node as BinaryNode;
      },
      { timeout: 10_000 },
    );
    expect(asked.get(request.attrs.id)).toEqual(["3AADLEAD0001"]);

    // The phone answers with the message it holds.
    const answer = await phone.placeholderResend(request.attrs.id, {
      key: { remoteJid: customer.jid, fromMe: false, id: "3AADLEAD0001" },
      message: { conversation: "Olá! Quero mais informações sobre isto." },
      messageTimestamp: Math.floor(Date.now() / 1000),
    });
    dispatch(ws, answer);
    await vi.waitFor(
      async () => expect(await rowOf("3AADLEAD0001")).toMatchObject({ body: "Olá! Quero mais informações sobre isto." }),
      { timeout: 5000 },
    );
    // The stub, then the phone's copy: both "notify". (rc14's event buffer folds the resend into the
    // upsert of the phone's own message and drops its requestId: the id is what matches them.)
    expect(upserts.filter((u) => u.ids.includes("3AADLEAD0001")).map((u) => u.type)).toEqual(["notify", "notify"]);
    const replaced = await rowOf("3AADLEAD0001");
    expect(replaced).toMatchObject({ id: placeholder.id, mediaType: "chat", read: false });
    expect(await ticketOf(placeholder.ticketId)).toMatchObject({ lastMessage: "Olá! Quero mais informações sobre isto." });
  });
});
