import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { fakeBaileys } from "../../../test/baileys/baileys-test-rig.js";
import type { FakeSocket } from "../../../test/baileys/fake-socket.js";
import { insertConnection, recordingSink, silentLogger } from "../../../test/channel-support.js";
import { openTestDatabase } from "../../../test/harness.js";
import { whatsappAuth } from "../../db/schema.js";
import { createChannelStore } from "../../modules/connections/channel-store.js";
import type { ChannelFactory } from "../channel.js";
import { createSessionManager, type SessionManager } from "../session-manager.js";

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

function setup() {
  const fake = fakeBaileys();
  const rec = recordingSink();
  manager = createSessionManager({
    store: createChannelStore(database.db),
    factories: { baileys: fake.factory, simulator: unused },
    logger: silentLogger(),
    sink: rec.sink,
    onState: rec.onState,
    mediaMaxBytes: 64 * 1024 * 1024,
    backoff: { initialMs: 10, maxMs: 20 },
  });
  return { ...fake, rec, manager };
}

const authRows = (id: number) => database.db.select().from(whatsappAuth).where(eq(whatsappAuth.whatsappId, id));
const credsRow = async (id: number) =>
  (
    await database.db
      .select()
      .from(whatsappAuth)
      .where(and(eq(whatsappAuth.whatsappId, id), eq(whatsappAuth.key, "creds")))
  )[0];

/** What Baileys does once the phone scans the QR: credentials gain `me`, then a new login is announced. */
function pair(socket: FakeSocket) {
  const me = { id: "5511999990000:3@s.whatsapp.net", name: "Shop" };
  Object.assign(socket.config.auth!.creds, { me, registered: true });
  socket.ev.emit("creds.update", { me });
  socket.ev.emit("connection.update", { isNewLogin: true });
}

describe("Baileys connection lifecycle through the session manager", () => {
  it("QR, pairing, restart-required, connected; credentials saved to the database", async () => {
    const { sockets, rec, manager } = setup();
    const id = await insertConnection(database.db, "baileys");
    await manager.start(id);
    expect(sockets).toHaveLength(1);
    const config = sockets[0].config;
    expect(config.printQRInTerminal).toBe(false);
    expect(config.browser?.[1]).toBe("Zapdesk");
    expect(Buffer.isBuffer(config.auth?.creds.noiseKey.private)).toBe(true);

    sockets[0].qr("2@first-qr");
    await vi.waitFor(() => expect(rec.states.at(-1)!.state).toEqual({ status: "qrcode", qrcode: "2@first-qr", pairingCode: "" }));
    pair(sockets[0]);
    await vi.waitFor(() => expect(manager.status(id)).toBe("PAIRING"));
    expect(rec.states.at(-1)!.state).toEqual({ status: "PAIRING", qrcode: "", pairingCode: "" });

    sockets[0].close(515);
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    sockets[1].open();
    await vi.waitFor(() => expect(manager.isConnected(id)).toBe(true));
    await vi.waitFor(() => expect(rec.statuses(id)).toEqual(["OPENING", "qrcode", "PAIRING", "CONNECTED"]));
    await vi.waitFor(async () =>
      expect((await credsRow(id))?.value).toMatchObject({ v: { me: { id: "5511999990000:3@s.whatsapp.net" } } }),
    );
  });

  it("a dropped connection reconnects with backoff and resumes the stored pairing", async () => {
    const { sockets, rec, manager } = setup();
    const id = await insertConnection(database.db, "baileys");
    await manager.start(id);
    pair(sockets[0]);
    sockets[0].open();
    await vi.waitFor(() => expect(manager.isConnected(id)).toBe(true));
    await vi.waitFor(async () => expect(await credsRow(id)).toBeDefined());

    sockets[0].close(428);
    await vi.waitFor(() =>
      expect(rec.states.map((s) => s.state)).toContainEqual(
        expect.objectContaining({ status: "TIMEOUT", retries: 1, reconnecting: true }),
      ),
    );
    expect(() => manager.get(id)).toThrow(expect.objectContaining({ code: "ERR_WAPP_NOT_INITIALIZED" }));
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    // The new session read the credentials back from the database: no QR needed.
    expect(sockets[1].config.auth?.creds.me?.id).toBe("5511999990000:3@s.whatsapp.net");
    sockets[1].open();
    await vi.waitFor(() => expect(manager.isConnected(id)).toBe(true));
  });

  it("logged out from the phone: DISCONNECTED, pairing forgotten, no reconnect", async () => {
    const { sockets, manager } = setup();
    const id = await insertConnection(database.db, "baileys");
    await manager.start(id);
    pair(sockets[0]);
    sockets[0].open();
    await vi.waitFor(async () => expect(await credsRow(id)).toBeDefined());

    sockets[0].close(401);
    await vi.waitFor(() => expect(manager.status(id)).toBe("DISCONNECTED"));
    await vi.waitFor(async () => expect(await authRows(id)).toEqual([]));
    // A late credentials update from the dead socket does not bring the pairing back.
    sockets[0].ev.emit("creds.update", { me: { id: "5511999990000:3@s.whatsapp.net" } });
    await new Promise((r) => setTimeout(r, 50));
    expect(await authRows(id)).toEqual([]);
    expect(sockets).toHaveLength(1);

    await manager.requestNewQr(id);
    expect(sockets).toHaveLength(2);
    expect(sockets[1].config.auth?.creds.me).toBeUndefined();
  });

  it("an unscanned QR that times out goes DISCONNECTED instead of reconnecting forever", async () => {
    const { sockets, rec, manager } = setup();
    const id = await insertConnection(database.db, "baileys");
    await manager.start(id);
    sockets[0].qr("2@qr");
    sockets[0].close(408);
    await vi.waitFor(() => expect(manager.status(id)).toBe("DISCONNECTED"));
    await new Promise((r) => setTimeout(r, 50));
    expect(sockets).toHaveLength(1);
    expect(rec.states.at(-1)!.state).toEqual({
      status: "DISCONNECTED",
      qrcode: "",
      pairingCode: "",
      retries: 0,
      statusReason: "QR_TIMEOUT",
      lastError: "Error: Connection Failure",
    });
  });

  it("disconnect logs the phone out and clears the auth state; stop keeps it", async () => {
    const { sockets, manager } = setup();
    const id = await insertConnection(database.db, "baileys");
    await manager.start(id);
    pair(sockets[0]);
    sockets[0].open();
    await vi.waitFor(async () => expect(await credsRow(id)).toBeDefined());

    await manager.start(id);
    expect(sockets[0].ended).toBe(true);
    expect(sockets[0].loggedOut).toBe(false);
    expect(await credsRow(id)).toBeDefined();
    sockets[1].open();
    await vi.waitFor(() => expect(manager.isConnected(id)).toBe(true));

    await manager.disconnect(id);
    expect(sockets[1].loggedOut).toBe(true);
    expect(await authRows(id)).toEqual([]);
    expect(manager.status(id)).toBe("DISCONNECTED");
    await new Promise((r) => setTimeout(r, 50));
    expect(sockets).toHaveLength(2);
  });
});
