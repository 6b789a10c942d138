import { readFile, writeFile } from "node:fs/promises";
import type { BinaryNode } from "@whiskeysockets/baileys";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { messages, whatsappAuth } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { createTestApp, openTestDatabase, type TestApp } from "../harness.js";
import { localWhatsApp, OFFLINE_DRAINED, pairedDevice, simulatedCustomer } from "./real-whatsapp.js";

/**
 * An auth state as Zapdesk stored it with Baileys 7.0.0-rc14 (`whatsapp_auth` rows: credentials,
 * the Signal session with a customer, LID mappings), and a message that customer encrypted with
 * that session. The next Baileys must open this state and decrypt the message: the suite then says
 * whether stored sessions survive an upgrade, or need the offline migration v8 announces.
 * `WRITE_AUTH_FIXTURE=1` writes the fixture again with the Baileys installed (do it only on the
 * version the fixture is meant to represent).
 */
const FIXTURE = new URL("./fixtures/auth-state-rc14.json", import.meta.url);

interface Fixture {
  baileys: string;
  rows: { key: string; value: unknown }[];
  /** The customer's next message, encrypted with the session in `rows`. */
  message: { attrs: Record<string, string>; encType: string; ciphertext: string; text: string };
}

const opened: {
  t?: TestApp;
  server?: Awaited<ReturnType<typeof localWhatsApp>>;
  database?: Awaited<ReturnType<typeof openTestDatabase>>;
}[] = [];
afterEach(async () => {
  for (const { t, server, database } of opened.splice(0)) {
    await t?.close();
    await server?.close();
    await database?.close();
    await database?.drop();
  }
});

async function start(write?: (whatsappId: number, db: Awaited<ReturnType<typeof openTestDatabase>>["db"]) => Promise<void>) {
  const database = await openTestDatabase();
  const server = await localWhatsApp();
  const whatsappId = await insertConnection(database.db, "baileys");
  await write?.(whatsappId, database.db);
  const t = await createTestApp({ database, factories: { baileys: server.factory } });
  opened.push({ t, server, database });
  const ws = await server.ws();
  ws.emit("CB:ib,,offline", OFFLINE_DRAINED);
  const body = async (wid: string) =>
    (
      await database.db
        .select({ body: messages.body })
        .from(messages)
        .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)))
    )[0]?.body;
  return { database, whatsappId, ws, body };
}

describe("an auth state stored by today's Baileys", () => {
  it.runIf(process.env.WRITE_AUTH_FIXTURE === "1")("is written as a fixture", async () => {
    let device: Awaited<ReturnType<typeof pairedDevice>> | undefined;
    const { database, whatsappId, ws, body } = await start(async (id, db) => {
      device = await pairedDevice(db, id);
    });
    const customer = await simulatedCustomer(device as Awaited<ReturnType<typeof pairedDevice>>);
    // A first message builds the session, kept in our auth tables.
    ws.emit("CB:message", await customer.message("3AFIXTURE0001", "first"));
    await vi.waitFor(async () => expect(await body("3AFIXTURE0001")).toBe("first"), { timeout: 5000 });
    // Baileys writes its session transaction after the message: wait until the pre-key is used up.
    await vi.waitFor(async () => {
      const keys = await database.db.select({ key: whatsappAuth.key }).from(whatsappAuth);
      expect(keys.map((k) => k.key)).not.toContain("pre-key-1");
    });
    const next = await customer.message("3AFIXTURE0002", "sessão guardada pelo rc14");
    const enc = (next.content as BinaryNode[])[0];
    const rows = await database.db
      .select({ key: whatsappAuth.key, value: whatsappAuth.value })
      .from(whatsappAuth)
      .where(eq(whatsappAuth.whatsappId, whatsappId))
      .orderBy(whatsappAuth.key);
    const { version } = JSON.parse(await readFile(new URL(import.meta.resolve("@whiskeysockets/baileys/package.json")), "utf8"));
    const fixture: Fixture = {
      baileys: version,
      rows,
      message: {
        attrs: next.attrs,
        encType: enc.attrs.type,
        ciphertext: Buffer.from(enc.content as Uint8Array).toString("base64"),
        text: "sessão guardada pelo rc14",
      },
    };
    await writeFile(FIXTURE, `${JSON.stringify(fixture, null, 2)}\n`);
  });

  it("opens with the installed Baileys and decrypts a message sent with its session", async () => {
    const fixture = JSON.parse(await readFile(FIXTURE, "utf8")) as Fixture;
    expect(fixture.rows.some((r) => r.key.startsWith("session-"))).toBe(true);
    const { ws, body } = await start(async (whatsappId, db) => {
      await db.insert(whatsappAuth).values(fixture.rows.map((r) => ({ whatsappId, key: r.key, value: r.value })));
    });
    const { attrs, encType, ciphertext, text } = fixture.message;
    // The server delivers it now: a fresh timestamp, the stored session.
    ws.emit("CB:message", {
      tag: "message",
      attrs: { ...attrs, t: String(Math.floor(Date.now() / 1000)) },
      content: [{ tag: "enc", attrs: { v: "2", type: encType }, content: Buffer.from(ciphertext, "base64") }],
    });
    await vi.waitFor(async () => expect(await body(attrs.id)).toBe(text), { timeout: 5000 });
  });
});
