import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { toRaw } from "../../src/channels/baileys/baileys-translate.js";
import { createInboundSpool } from "../../src/channels/inbound-spool.js";
import { openDatabase } from "../../src/db/client.js";
import { messages } from "../../src/db/schema.js";
import { eventually } from "../conversation.js";
import { openTestDatabase } from "../harness.js";
import { postgresTarget, startTcpProxy } from "../tcp-proxy.js";
import { makeBaileysConnection, startBaileysApp } from "./app-rig.js";
import { incoming } from "./inbound-helpers.js";

/**
 * Issue 19: WhatsApp Web has already told the customer "delivered" when Baileys hands a message
 * over, so a QR connection cannot let the database's absence lose it. The database here sits
 * behind a relay the test cuts; the app and its FakeSocket-backed Baileys adapter are real.
 */
const jid = (n: string) => `${n}@s.whatsapp.net`;
const bodies = async (db: Awaited<ReturnType<typeof openTestDatabase>>, whatsappId: number) =>
  (
    await db.db
      .select({ body: messages.body })
      .from(messages)
      .where(eq(messages.whatsappId, whatsappId))
      .orderBy(asc(messages.id))
  ).map((m) => m.body);

describe("a QR connection while the database is unreachable", () => {
  it("keeps what WhatsApp delivered on disk, shows it, and stores it in order once the database answers", async () => {
    const database = await openTestDatabase();
    const { target, via } = postgresTarget(database.url);
    const relay = await startTcpProxy(target);
    const relayed = await openDatabase({ url: via(relay.port), poolSize: 5, connectTimeoutMs: 1000 });
    const app = await startBaileysApp({ database: relayed });
    try {
      const { connection, socket } = await makeBaileysConnection(app);
      const customer = "5511988880001";
      socket.receive(incoming({ conversation: "before" }, { remoteJid: jid(customer) }));
      await eventually(async () => expect(await bodies(database, connection.id)).toEqual(["before"]));

      await relay.stop();
      const during = Array.from({ length: 5 }, (_, i) => `during ${i}`);
      socket.receive(incoming({ conversation: during[0] }, { remoteJid: jid(customer) }));
      socket.receive(incoming({ conversation: during[1] }, { remoteJid: jid(customer) }));
      socket.receive(incoming({ conversation: during[2] }, { remoteJid: jid("5511988880002") }));
      // One upsert of two (the batched road).
      socket.ev.emit("messages.upsert", {
        type: "notify",
        messages: [during[3], during[4]].map((body) => incoming({ conversation: body }, { remoteJid: jid(customer) })),
      });
      const file = join(app.t.config.dataDir, "spool", `inbound-${connection.id}.jsonl`);
      await eventually(() => expect(app.t.sessions.spooled(connection.id)).toBe(5), 20_000);
      expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(5);

      await relay.start();
      await eventually(async () => expect(await bodies(database, connection.id)).toEqual(["before", ...during]), 30_000);
      expect(app.t.sessions.spooled(connection.id)).toBe(0);
      expect(existsSync(file)).toBe(false);
      // Each event is marked done just after what it carried is stored.
      await eventually(async () => {
        const shown = await app.t.app.inject({ method: "GET", url: `/api/whatsapp/${connection.id}`, headers: app.admin.auth });
        expect(shown.json().health).toMatchObject({ spooledEvents: 0, pendingEvents: 0 });
      });
    } finally {
      await relay.start();
      await app.close();
      await relayed.close();
      await relay.stop();
      await database.close();
      await database.drop();
    }
  }, 120_000);

  it("a spool left by a process that stopped during the outage is stored when the connection starts again", async () => {
    const database = await openTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-spool-"));
    let connectionId = 0;
    const first = await startBaileysApp({ database, config: { dataDir } });
    try {
      connectionId = (await makeBaileysConnection(first)).connection.id;
    } finally {
      await first.t.app.close();
    }
    // What the stopped process had received and spooled, in the form it writes.
    mkdirSync(join(dataDir, "spool"), { recursive: true });
    const left = ["left 1", "left 2"].map((body) => incoming({ conversation: body }, { remoteJid: jid("5511988880003") }));
    createInboundSpool(join(dataDir, "spool", `inbound-${connectionId}.jsonl`)).append(
      left.map((m) => ({ kind: "baileys.message", key: `msg:${m.key.id}`, payload: toRaw(m) })),
    );

    const second = await startBaileysApp({ database, config: { dataDir } });
    try {
      await eventually(async () => expect(await bodies(database, connectionId)).toEqual(["left 1", "left 2"]), 30_000);
      expect(existsSync(join(dataDir, "spool", `inbound-${connectionId}.jsonl`))).toBe(false);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
      await database.close();
      await database.drop();
    }
  }, 120_000);
});
