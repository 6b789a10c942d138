import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inboundEvents, messages } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { createTestApp, openTestDatabase, type TestApp } from "../harness.js";
import { localWhatsApp, OFFLINE_DRAINED, pairedDevice, simulatedCustomer } from "./real-whatsapp.js";

/**
 * Messages that waited on WhatsApp's server while we were offline: the real makeWASocket decrypts
 * them side by side and emits what its event buffer gathered meanwhile as one `messages.upsert`
 * (how many per upsert depends on when each decryption finishes). The adapter hands each upsert to
 * the pipeline at once, so its messages are stored in one transaction (the very first waits alone:
 * it teaches the customer's LID).
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>>;
let t: TestApp;
let whatsappId: number;

beforeAll(async () => {
  database = await openTestDatabase();
  server = await localWhatsApp();
  whatsappId = await insertConnection(database.db, "baileys");
});
afterAll(async () => {
  await t?.close();
  await server?.close();
  await database?.close();
  await database?.drop();
});

describe("offline messages flushed by a real socket", () => {
  it("are stored in the order Baileys emitted them, each upsert in one transaction, each log row done", async () => {
    const customer = await simulatedCustomer(await pairedDevice(database.db, whatsappId));
    t = await createTestApp({ database, factories: { baileys: server.factory } });
    const ws = await server.ws();
    // What Baileys emitted, upsert by upsert (its buffer groups what it decrypted meanwhile).
    const upserts: string[][] = [];
    server.sockets.at(-1)?.ev.on("messages.upsert", ({ messages: list }) => upserts.push(list.map((m) => m.key.id as string)));
    const ids = Array.from({ length: 6 }, (_, i) => `3AOFFLINE0${i}`);
    for (const [i, id] of ids.entries()) ws.emit("CB:message", await customer.message(id, `offline ${i}`));
    ws.emit("CB:ib,,offline", OFFLINE_DRAINED);

    const logged = await vi.waitFor(
      async () => {
        const rows = await database.db
          .select({ key: inboundEvents.eventKey, status: inboundEvents.status })
          .from(inboundEvents)
          .where(
            and(
              eq(inboundEvents.whatsappId, whatsappId),
              inArray(
                inboundEvents.eventKey,
                ids.map((id) => `msg:${id}`),
              ),
            ),
          )
          .orderBy(asc(inboundEvents.id));
        expect(rows.map((r) => r.status)).toEqual(ids.map(() => "done"));
        return rows;
      },
      { timeout: 10_000 },
    );
    expect(logged.map((r) => r.key).sort()).toEqual(ids.map((id) => `msg:${id}`));
    const rows = await database.db
      .select({ wid: messages.wid, body: messages.body, tx: sql<string>`${messages}.xmin::text` })
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), inArray(messages.wid, ids)))
      .orderBy(asc(messages.id));
    // Stored in the order Baileys emitted them (the log's order), each once.
    expect(rows.map((r) => `msg:${r.wid}`)).toEqual(logged.map((r) => r.key));
    expect(upserts.flat()).toEqual(rows.map((r) => r.wid));
    // Each upsert's messages in one transaction, except the first message of all: it waits alone
    // while the customer's LID is learned, as it always did.
    const txOf = new Map(rows.map((r) => [r.wid, r.tx]));
    for (const upsert of upserts) {
      const plain = upsert.filter((wid) => wid !== rows[0].wid);
      expect(new Set(plain.map((wid) => txOf.get(wid))).size).toBeLessThanOrEqual(1);
    }
  });
});
