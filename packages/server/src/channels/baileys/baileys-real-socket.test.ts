import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase } from "../../../test/harness.js";
import { insertConnection, silentLogger } from "../test-support.js";
import { createBaileysChannel } from "./baileys-channel.js";
import { recordingHandlers } from "./baileys-test-rig.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

describe("the real makeWASocket", () => {
  it("accepts our configuration: it shows a QR, or reports a drop when WhatsApp is unreachable", async () => {
    const id = await insertConnection(database.db, "baileys");
    const { rec, handlers } = recordingHandlers();
    const session = createBaileysChannel({ whatsappId: id, db: database.db, handlers, logger: silentLogger() });
    await session.start();
    await vi.waitFor(() => expect(rec.closes.length + rec.qrs.length).toBeGreaterThan(0), { timeout: 40_000, interval: 100 });
    if (rec.closes.length > 0) expect(rec.closes[0].reason).toBe("dropped");
    await session.stop();
    const reported = rec.closes.length;
    await new Promise((r) => setTimeout(r, 100));
    // A requested stop is never reported as a close.
    expect(rec.closes).toHaveLength(reported);
    await expect(session.send({ to: "5511999990001", isGroup: false, body: "x" })).rejects.toMatchObject({
      code: "ERR_WAPP_NOT_INITIALIZED",
    });
  }, 60_000);
});
