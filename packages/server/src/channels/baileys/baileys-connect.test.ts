import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { fakeBaileys } from "../../../test/baileys/baileys-test-rig.js";
import type { FakeSocket } from "../../../test/baileys/fake-socket.js";
import { insertConnection, recordingSink, silentLogger } from "../../../test/channel-support.js";
import { openTestDatabase } from "../../../test/harness.js";
import { whatsapps } from "../../db/schema.js";
import { createChannelStore } from "../../modules/connections/channel-store.js";
import type { ChannelFactory } from "../channel.js";
import { createSessionManager, type SessionManager } from "../session-manager.js";
import { BUNDLED_VERSION, createVersionSource, fetchWaWebVersion } from "./baileys-version.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let manager: SessionManager | undefined;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterEach(async () => {
  await manager?.stopAll();
  manager = undefined;
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

const unused: ChannelFactory = () => {
  throw new Error("no simulator here");
};
const NEWER = [BUNDLED_VERSION[0], BUNDLED_VERSION[1], BUNDLED_VERSION[2] + 10] as [number, number, number];

function setup(fetchVersion: () => Promise<[number, number, number] | undefined> = async () => undefined) {
  const fake = fakeBaileys({ fetchVersion });
  const rec = recordingSink();
  manager = createSessionManager({
    store: createChannelStore(database.db),
    factories: { baileys: fake.factory, simulator: unused },
    logger: silentLogger(),
    sink: rec.sink,
    onState: rec.onState,
    mediaMaxBytes: 1024,
    backoff: { initialMs: 10, maxMs: 20 },
  });
  return { ...fake, rec, manager };
}

/** Paired the way WhatsApp pairs a QR scan: `me` and the signed device identity, never `registered`. */
function pairByQr(socket: FakeSocket) {
  const creds = socket.config.auth!.creds;
  Object.assign(creds, { me: { id: "5511999990000:3@s.whatsapp.net", name: "Shop" }, account: { details: Buffer.from("x") } });
  socket.ev.emit("creds.update", { me: creds.me, account: creds.account });
}

describe("how the adapter configures Baileys", () => {
  it("no echo of our own sends, status and channels ignored at decryption, the fetched version", async () => {
    const { sockets, manager } = setup(async () => NEWER);
    const id = await insertConnection(database.db, "baileys");
    await manager.start(id);
    const config = sockets[0].config;
    expect(config.emitOwnEvents).toBe(false);
    expect(config.shouldIgnoreJid?.("status@broadcast")).toBe(true);
    expect(config.shouldIgnoreJid?.("120363000000000000@newsletter")).toBe(true);
    expect(config.shouldIgnoreJid?.("5511999990001@s.whatsapp.net")).toBe(false);
    expect(config.shouldIgnoreJid?.("120363041234567890@g.us")).toBe(false);
    expect(config.version).toEqual(NEWER);
  });

  it("the bundled version is the floor: an older or missing fetch never downgrades it", async () => {
    const older = createVersionSource(async () => [2, 2000, 1]);
    expect(await older.current()).toEqual(BUNDLED_VERSION);
    const failing = createVersionSource(async () => {
      throw new Error("offline");
    });
    expect(await failing.current()).toEqual(BUNDLED_VERSION);
    // Without network the real fetch gives up within its short timeout.
    const started = Date.now();
    expect(await fetchWaWebVersion()).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe("close codes that retrying cannot fix", () => {
  it("405: one reconnect with a freshly fetched newer version, then CLIENT_OUTDATED and no more retries", async () => {
    let served: [number, number, number] | undefined;
    const { sockets, rec, manager } = setup(async () => served);
    const id = await insertConnection(database.db, "baileys");
    await manager.start(id);
    pairByQr(sockets[0]);
    sockets[0].open();
    expect(sockets[0].config.version).toEqual(BUNDLED_VERSION);

    served = NEWER;
    sockets[0].close(405);
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(sockets[1].config.version).toEqual(NEWER);

    sockets[1].close(405);
    await vi.waitFor(() => expect(manager.status(id)).toBe("DISCONNECTED"));
    expect(rec.states.at(-1)!.state).toMatchObject({ status: "DISCONNECTED", statusReason: "CLIENT_OUTDATED" });
    await new Promise((r) => setTimeout(r, 60));
    expect(sockets).toHaveLength(2);
  });

  it.each([
    [440, "REPLACED"],
    [402, "BANNED"],
    [406, "BANNED"],
  ])("%i: DISCONNECTED with %s, the pairing kept, no reconnect", async (code, reason) => {
    const { sockets, rec, manager } = setup();
    const id = await insertConnection(database.db, "baileys");
    await manager.start(id);
    pairByQr(sockets[0]);
    sockets[0].open();
    await vi.waitFor(() => expect(manager.isConnected(id)).toBe(true));
    sockets[0].close(code);
    await vi.waitFor(() => expect(manager.status(id)).toBe("DISCONNECTED"));
    expect(rec.states.at(-1)!.state).toMatchObject({ statusReason: reason });
    await new Promise((r) => setTimeout(r, 60));
    expect(sockets).toHaveLength(1);
  });
});

describe("pairing by phone number", () => {
  it("asks for a code once the socket offers its first QR, and shows the code instead of the QR", async () => {
    const { sockets, rec, manager } = setup();
    const id = await insertConnection(database.db, "baileys");
    await database.db.update(whatsapps).set({ pairingPhone: "+55 11 99999-0000" }).where(eq(whatsapps.id, id));
    await manager.start(id);
    sockets[0].qr("2@first");
    await vi.waitFor(() => expect(rec.states.at(-1)!.state).toEqual({ status: "qrcode", qrcode: "", pairingCode: "ABCD1234" }));
    sockets[0].qr("2@second");
    await new Promise((r) => setTimeout(r, 30));
    expect(sockets[0].pairingRequests).toEqual(["5511999990000"]);
    expect(rec.states.some((s) => s.state.qrcode?.startsWith("2@"))).toBe(false);
  });

  it("a code nobody typed is a QR timeout, not a paired session to reconnect, and the next attempt starts clean", async () => {
    const { sockets, manager } = setup();
    const id = await insertConnection(database.db, "baileys");
    await database.db.update(whatsapps).set({ pairingPhone: "5511999990000" }).where(eq(whatsapps.id, id));
    await manager.start(id);
    sockets[0].qr("2@first");
    await vi.waitFor(() => expect(sockets[0].pairingRequests).toHaveLength(1));
    // requestPairingCode set `me`, but WhatsApp never confirmed the device.
    expect(sockets[0].config.auth!.creds.me?.id).toBe("5511999990000@s.whatsapp.net");
    sockets[0].close(408);
    await vi.waitFor(() => expect(manager.status(id)).toBe("DISCONNECTED"));
    expect(sockets).toHaveLength(1);

    await manager.start(id);
    expect(sockets[1].config.auth!.creds.me).toBeUndefined();
  });
});
