import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { migrate } from "../../src/db/migrate.js";
import { inboundEvents, messages } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { eventually } from "../conversation.js";
import { createTestApp, openTestDatabase } from "../harness.js";
import { nodeArgsFor } from "../server-bundle.js";
import { fakeBaileys } from "./baileys-test-rig.js";

/**
 * Baileys receipts a message before it emits it, so WhatsApp never delivers it again: a crash
 * between the two loses it unless something durable holds it. A real process receives a real
 * encrypted message and dies before the pipeline commits; a new Zapdesk on the same database
 * stores it, exactly once.
 */
const here = dirname(fileURLToPath(import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-kill-"));
let server: { url?: string; drop(): Promise<void> } | undefined;
let whatsappId: number;

/** The server's own database, or the embedded PostgreSQL of the test's DATA_DIR (created on the first open). */
async function open(first = false): Promise<Database> {
  if (server?.url) return openDatabase({ url: server.url, poolSize: 3 });
  const database = await openDatabase({ dataDir, poolSize: 3 });
  if (first) await migrate(database);
  return database;
}

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const database = await openTestDatabase();
    await database.close();
    server = database;
  }
  const database = await open(true);
  whatsappId = await insertConnection(database.db, "baileys");
  await database.close();
});
afterAll(async () => {
  await server?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

function runChild(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeArgsFor("test/baileys/kill-child.ts", inject("serverBundle")), {
      cwd: join(here, "..", ".."),
      env: {
        ...process.env,
        KILL_WHATSAPP_ID: String(whatsappId),
        ...(server?.url ? { KILL_DB_URL: server.url } : { KILL_DB_DIR: dataDir }),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("a crash between WhatsApp's receipt and the pipeline's commit", () => {
  it("loses nothing: the restarted server stores the message from the inbound log, once", async () => {
    const child = await runChild();
    expect(child.code, child.stderr).toBe(0);
    const died = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as { wid: string; receipted: boolean };
    // WhatsApp had been told the message arrived: it will never send it again.
    expect(died).toMatchObject({ wid: "3AKILLEDBEFORECOMMIT", receipted: true });

    const database = await open();
    const stored = () =>
      database.db
        .select({ body: messages.body })
        .from(messages)
        .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, died.wid)));
    expect(await stored()).toEqual([]);

    const fake = fakeBaileys();
    const t = await createTestApp({ database, factories: { baileys: fake.factory } });
    try {
      await eventually(async () => expect(await stored()).toEqual([{ body: "mensagem que não pode se perder" }]), 10_000);
      await eventually(async () => {
        const [logged] = await database.db
          .select({ status: inboundEvents.status })
          .from(inboundEvents)
          .where(and(eq(inboundEvents.whatsappId, whatsappId), eq(inboundEvents.eventKey, `msg:${died.wid}`)));
        expect(logged).toEqual({ status: "done" });
      });
      // Replaying again (another restart) stores nothing twice.
      await t.sessions.start(whatsappId);
      await new Promise((r) => setTimeout(r, 200));
      expect(await stored()).toHaveLength(1);
    } finally {
      await t.close();
      await database.close();
    }
  }, 30_000);
});
