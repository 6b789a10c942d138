import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { insertConnection, recordingSink, silentLogger } from "../../test/channel-support.js";
import { openTestDatabase } from "../../test/harness.js";
import { whatsapps } from "../db/schema.js";
import { createChannelStore } from "../modules/connections/channel-store.js";
import type { ChannelFactory } from "./channel.js";
import { createSessionManager, type SessionManager } from "./session-manager.js";
import { createSimulatorHub } from "./simulator/simulator-hub.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
const managers: SessionManager[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
});
afterEach(async () => {
  // Each test's "processes" go away with it, so none of them adopts the next test's rows.
  await Promise.all(managers.splice(0).map((m) => m.stopAll()));
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

const unused: ChannelFactory = () => {
  throw new Error("no baileys here");
};

/** One server process: its own simulator hub and session manager, sharing the database. */
function processNamed(owner: string, lease = { ttlMs: 2_000, renewMs: 100 }) {
  const hub = createSimulatorHub({ qrDelayMs: 0 });
  const rec = recordingSink();
  const manager = createSessionManager({
    store: createChannelStore(database.db),
    factories: { simulator: hub.factory, baileys: unused },
    logger: silentLogger(),
    sink: rec.sink,
    onState: rec.onState,
    mediaMaxBytes: 64 * 1024 * 1024,
    backoff: { initialMs: 10, maxMs: 20 },
    lease: { owner, ...lease },
  });
  managers.push(manager);
  return { hub, rec, manager };
}

const ownerOf = async (id: number) =>
  (await database.db.select({ owner: whatsapps.leaseOwner }).from(whatsapps).where(eq(whatsapps.id, id)))[0]?.owner;

describe("connection leases across processes", () => {
  it("each connection is owned by exactly one process, taken over when its owner dies", async () => {
    const c1 = await insertConnection(database.db, "simulator");
    const c2 = await insertConnection(database.db, "simulator");
    // A process that stops renewing (hung or killed) right after taking its leases.
    const dead = processNamed("process-dead", { ttlMs: 1_000, renewMs: 2_000_000_000 });
    const b = processNamed("process-b");

    await dead.manager.startAll();
    await b.manager.startAll();
    expect(dead.manager.isConnected(c1)).toBe(true);
    expect(b.manager.provider(c1)).toBeUndefined();
    expect(await ownerOf(c1)).toBe("process-dead");

    await vi.waitFor(() => expect(b.manager.isConnected(c1) && b.manager.isConnected(c2)).toBe(true), { timeout: 5_000 });
    expect(await ownerOf(c1)).toBe("process-b");
    expect(await ownerOf(c2)).toBe("process-b");

    // Renewal keeps a live owner's leases well past the TTL.
    const a = processNamed("process-a");
    await a.manager.startAll();
    await new Promise((r) => setTimeout(r, 2_500));
    expect(b.manager.isConnected(c1)).toBe(true);
    expect(a.manager.provider(c1)).toBeUndefined();

    // An admin's explicit start on another process moves the connection there; the old owner lets go.
    await a.manager.start(c2);
    expect(a.manager.isConnected(c2)).toBe(true);
    await vi.waitFor(() => expect(b.manager.provider(c2)).toBeUndefined(), { timeout: 5_000 });
    await expect(b.hub.inbound(c2, { from: "5511999990001", body: "x" })).rejects.toMatchObject({
      code: "ERR_WAPP_NOT_INITIALIZED",
    });
    expect(await ownerOf(c2)).toBe("process-a");

    // A clean shutdown releases at once, and the survivor picks the connection up.
    await b.manager.stopAll();
    await vi.waitFor(() => expect(a.manager.isConnected(c1)).toBe(true), { timeout: 5_000 });
    expect(await ownerOf(c1)).toBe("process-a");
  });

  it("says NO_OWNER while nobody holds a connection: a dead owner's, and a stopping one's", async () => {
    const id = await insertConnection(database.db, "simulator");
    const dead = processNamed("process-gone", { ttlMs: 500, renewMs: 2_000_000_000 });
    const heir = processNamed("process-heir", { ttlMs: 2_000, renewMs: 100 });
    await dead.manager.startAll();
    await heir.manager.startAll();
    await vi.waitFor(() => expect(heir.manager.isConnected(id)).toBe(true), { timeout: 5_000 });
    const reasons = (rec: typeof heir.rec) =>
      rec.states.filter((s) => s.whatsappId === id && s.state.status).map((s) => [s.state.status, s.state.statusReason]);
    expect(reasons(heir.rec).slice(0, 2)).toEqual([
      ["TIMEOUT", "NO_OWNER"],
      ["OPENING", undefined],
    ]);
    expect(reasons(heir.rec).at(-1)).toEqual(["CONNECTED", null]);

    await heir.manager.stopAll();
    expect(reasons(heir.rec).at(-1)).toEqual(["TIMEOUT", "NO_OWNER"]);
    expect(await ownerOf(id)).toBeNull();
  });

  it("startAll leaves DISCONNECTED connections waiting for an admin", async () => {
    const id = await insertConnection(database.db, "simulator");
    await database.db.update(whatsapps).set({ status: "DISCONNECTED" }).where(eq(whatsapps.id, id));
    const c = processNamed("process-c");
    await c.manager.startAll();
    expect(c.manager.status(id)).toBe("DISCONNECTED");
    expect(c.manager.isConnected(id)).toBe(false);
    expect(c.rec.statuses(id)).toEqual([]);

    await c.manager.requestNewQr(id);
    expect(c.manager.isConnected(id)).toBe(true);
    expect(c.rec.statuses(id)).toEqual(["OPENING", "qrcode", "PAIRING", "CONNECTED"]);
  });
});
