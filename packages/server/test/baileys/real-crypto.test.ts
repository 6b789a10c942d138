import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contacts, inboundEvents, lidMappings, messages, whatsappAuth } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { createTestApp, openTestDatabase, type TestApp } from "../harness.js";
import { dispatch } from "./real-stanzas.js";
import { localWhatsApp, OFFLINE_DRAINED, pairedDevice, simulatedCustomer } from "./real-whatsapp.js";

/**
 * The whole inbound path with real Signal crypto and no WhatsApp: a simulated customer encrypts
 * for our device; the real makeWASocket (created by Zapdesk's factory, auth state in Zapdesk's
 * database) decrypts, receipts and emits; the pipeline stores.
 */
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
  customer = await simulatedCustomer(await pairedDevice(database.db, whatsappId));
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

const stored = (wid: string) =>
  database.db
    .select({
      id: messages.id,
      body: messages.body,
      mediaType: messages.mediaType,
      fromMe: messages.fromMe,
      contactId: messages.contactId,
    })
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)));
const authKeys = async () =>
  (await database.db.select({ key: whatsappAuth.key }).from(whatsappAuth).where(eq(whatsappAuth.whatsappId, whatsappId))).map(
    (r) => r.key,
  );

describe("real encrypted customer messages", () => {
  it("are decrypted with the auth state in our database and stored by the pipeline", async () => {
    expect(await authKeys()).toContain("pre-key-1");
    dispatch(ws, await customer.message("3AREALPKMSG01", "olá, preciso de ajuda"));
    await vi.waitFor(async () => expect(await stored("3AREALPKMSG01")).toHaveLength(1), { timeout: 5000 });
    const [row] = await stored("3AREALPKMSG01");
    expect(row).toMatchObject({ body: "olá, preciso de ajuda", fromMe: false });
    const [contact] = await database.db.select().from(contacts).where(eq(contacts.id, row.contactId!));
    expect(contact).toMatchObject({ number: "5511999990001", name: "Ana" });
    // The stanza's sender_lid became Baileys' remoteJidAlt: the LID is now known to be this number.
    const [mapping] = await database.db.select().from(lidMappings).where(eq(lidMappings.lid, "77771111222233@lid"));
    expect(mapping?.pn).toBe("5511999990001");

    // Our one-time pre-key was used up and the Signal session now lives in our database.
    const keys = await authKeys();
    expect(keys).not.toContain("pre-key-1");
    expect(keys.some((k) => k.startsWith("session-"))).toBe(true);
    // Baileys receipted the message to the server: from here on WhatsApp will not deliver it again.
    await vi.waitFor(async () =>
      expect((await server.sentNodes()).some((n) => n.tag === "receipt" && n.attrs.id === "3AREALPKMSG01")).toBe(true),
    );
  });

  it("a corrupted ciphertext asks the sender to retry; the retried copy replaces the placeholder, once", async () => {
    dispatch(ws, await customer.message("3AREALPKMSG02", "segunda mensagem", { corrupt: true }));
    await vi.waitFor(
      async () =>
        expect(
          (await server.sentNodes()).some(
            (n) => n.tag === "receipt" && n.attrs.type === "retry" && n.attrs.id === "3AREALPKMSG02",
          ),
        ).toBe(true),
      { timeout: 5000 },
    );
    // Meanwhile the agent sees that the customer wrote: a placeholder under the message's id.
    const [placeholder] = await vi.waitFor(async () => {
      const rows = await stored("3AREALPKMSG02");
      expect(rows).toEqual([expect.objectContaining({ body: "", mediaType: "placeholder" })]);
      return rows;
    });

    // The sender encrypts it again; the server may well deliver that copy twice.
    dispatch(ws, await customer.message("3AREALPKMSG02", "segunda mensagem"));
    dispatch(ws, await customer.message("3AREALPKMSG02", "segunda mensagem"));
    await vi.waitFor(async () => expect(await stored("3AREALPKMSG02")).toMatchObject([{ body: "segunda mensagem" }]), {
      timeout: 5000,
    });
    expect(await stored("3AREALPKMSG02")).toEqual([
      expect.objectContaining({ id: placeholder.id, body: "segunda mensagem", mediaType: "chat" }),
    ]);
    await vi.waitFor(async () => {
      const logged = await database.db
        .select({ status: inboundEvents.status })
        .from(inboundEvents)
        .where(and(eq(inboundEvents.whatsappId, whatsappId), eq(inboundEvents.eventKey, "msg:3AREALPKMSG02")));
      expect(logged).toEqual([{ status: "done" }]);
    });
  });
});
