import { buffer } from "node:stream/consumers";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { insertConnection, recordingSink, silentLogger } from "../../../test/channel-support.js";
import { openTestDatabase } from "../../../test/harness.js";
import { createChannelStore } from "../../modules/connections/channel-store.js";
import type { ChannelFactory } from "../channel.js";
import { createSessionManager, type SessionManager } from "../session-manager.js";
import { createSimulatorHub, type SimulatorHub } from "./simulator-hub.js";

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
  throw new Error("no baileys in these tests");
};

function setup(options: { qrDelayMs?: number; backoff?: { initialMs: number; maxMs: number } } = {}) {
  const hub: SimulatorHub = createSimulatorHub({ qrDelayMs: options.qrDelayMs ?? 0 });
  const rec = recordingSink();
  manager = createSessionManager({
    store: createChannelStore(database.db),
    factories: { simulator: hub.factory, baileys: unused },
    logger: silentLogger(),
    sink: rec.sink,
    onState: rec.onState,
    mediaMaxBytes: 64 * 1024 * 1024,
    backoff: options.backoff ?? { initialMs: 10, maxMs: 40 },
  });
  return { hub, rec, manager };
}

describe("simulator channel with the session manager", () => {
  it("shows a QR, pairs and connects; a reconnect of a paired phone skips the QR", async () => {
    const { rec, manager } = setup();
    const id = await insertConnection(database.db, "simulator");
    expect(() => manager.get(id)).toThrow(expect.objectContaining({ code: "ERR_WAPP_NOT_INITIALIZED" }));
    await manager.start(id);
    expect(rec.statuses(id)).toEqual(["OPENING", "qrcode", "PAIRING", "CONNECTED"]);
    const qr = rec.states.find((s) => s.state.status === "qrcode")!.state.qrcode;
    expect(qr).toMatch(/^zapdesk-simulator:/);
    expect(rec.states.at(-1)!.state).toEqual({
      status: "CONNECTED",
      qrcode: "",
      pairingCode: "",
      retries: 0,
      statusReason: null,
    });
    expect(manager.isConnected(id)).toBe(true);
    expect(manager.provider(id)).toBe("simulator");
    expect(manager.get(id)).toBeDefined();

    await manager.start(id);
    expect(rec.statuses(id).slice(4)).toEqual(["OPENING", "CONNECTED"]);
  });

  it("shows the QR for the configured moment before connecting", async () => {
    const { rec, manager } = setup({ qrDelayMs: 40 });
    const id = await insertConnection(database.db, "simulator");
    await manager.start(id);
    expect(manager.isConnected(id)).toBe(false);
    await vi.waitFor(() => expect(rec.statuses(id)).toContain("qrcode"));
    expect(manager.status(id)).toBe("qrcode");
    await vi.waitFor(() => expect(manager.isConnected(id)).toBe(true));
    expect(rec.statuses(id)).toEqual(["OPENING", "qrcode", "PAIRING", "CONNECTED"]);
  });

  it("concurrent admin actions on one connection leave exactly one live session", async () => {
    const { hub, rec } = setup();
    const id = await insertConnection(database.db, "simulator");
    let live = 0;
    const counting = createSessionManager({
      store: createChannelStore(database.db),
      factories: {
        baileys: unused,
        simulator: (context) => {
          const session = hub.factory(context);
          let running = false;
          const down = () => {
            if (running) live -= 1;
            running = false;
          };
          return {
            ...session,
            start: async () => {
              running = true;
              live += 1;
              await session.start();
            },
            stop: async () => {
              down();
              await session.stop();
            },
            logout: async () => {
              down();
              await session.logout();
            },
          };
        },
      },
      logger: silentLogger(),
      sink: rec.sink,
      onState: rec.onState,
      mediaMaxBytes: 64 * 1024 * 1024,
    });
    try {
      await Promise.all([counting.start(id), counting.start(id), counting.requestNewQr(id), counting.start(id)]);
      expect(live).toBe(1);
      expect(counting.isConnected(id)).toBe(true);
      expect(rec.statuses(id).at(-1)).toBe("CONNECTED");
    } finally {
      await counting.stopAll();
    }
  });

  it("startAll starts every connection in the table", async () => {
    const { manager } = setup();
    const a = await insertConnection(database.db, "simulator");
    const b = await insertConnection(database.db, "simulator");
    await manager.startAll();
    expect(manager.isConnected(a)).toBe(true);
    expect(manager.isConnected(b)).toBe(true);
  });

  it("delivers inbound messages of every kind, and a repeated id as the same wid", async () => {
    const { hub, rec, manager } = setup();
    const id = await insertConnection(database.db, "simulator");
    await manager.start(id);

    const first = await hub.inbound(id, { from: "5511999990001", name: "Ana", body: "Hello", id: "ABC1" });
    const again = await hub.inbound(id, { from: "5511999990001", name: "Ana", body: "Hello", id: "ABC1" });
    expect(first).toEqual({ id: "ABC1" });
    expect(again).toEqual({ id: "ABC1" });
    expect(rec.messages.map((m) => m.message.wid)).toEqual(["ABC1", "ABC1"]);
    expect(rec.messages[0]).toMatchObject({
      whatsappId: id,
      message: {
        chat: "5511999990001",
        isGroup: false,
        fromMe: false,
        type: "chat",
        body: "Hello",
        sender: { number: "5511999990001", name: "Ana" },
      },
    });

    const png = Buffer.from("89504e470d0a1a0a", "hex");
    const media = await hub.inbound(id, {
      from: "5511999990001",
      body: "a photo",
      media: { mimetype: "image/png", filename: "p.png", dataBase64: png.toString("base64") },
      quotedId: "ABC1",
    });
    const image = rec.messages.at(-1)!.message;
    expect(image).toMatchObject({ wid: media.id, type: "image", body: "a photo", quotedWid: "ABC1" });
    expect(image.sender?.name).toBe("Ana");
    expect(await buffer(await image.media!.download())).toEqual(png);
    expect(await buffer(await manager.get(id).downloadMedia(image.raw))).toEqual(png);

    await hub.inbound(id, { from: "5511999990002", media: { mimetype: "audio/ogg", filename: "v.ogg", dataBase64: "AAAA" } });
    expect(rec.messages.at(-1)!.message).toMatchObject({ type: "audio", body: "" });
    await hub.inbound(id, { from: "5511999990002", location: { latitude: -23.5, longitude: -46.6, description: "Office" } });
    expect(rec.messages.at(-1)!.message).toMatchObject({ type: "location", location: { latitude: -23.5, longitude: -46.6 } });
    const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:Bob Smith\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD";
    await hub.inbound(id, { from: "5511999990002", vcard });
    expect(rec.messages.at(-1)!.message).toMatchObject({ type: "vcard", vcard, body: "Bob Smith" });

    await hub.inbound(id, {
      from: "120363041234567890",
      participant: "5511999990003",
      name: "Caio",
      isGroup: true,
      groupName: "Team",
      body: "hi all",
    });
    expect(rec.messages.at(-1)!.message).toMatchObject({
      chat: "120363041234567890",
      isGroup: true,
      groupName: "Team",
      sender: { number: "5511999990003", name: "Caio" },
    });

    const contacts = await manager.get(id).listContacts();
    expect(contacts).toEqual(
      expect.arrayContaining([
        { number: "5511999990001", name: "Ana" },
        { number: "5511999990003", name: "Caio" },
      ]),
    );
  });

  it("records what the customer's phone receives and reports acks, edits, revokes and calls", async () => {
    const { hub, rec, manager } = setup();
    const id = await insertConnection(database.db, "simulator");
    await manager.start(id);
    await hub.inbound(id, { from: "5511999990001", body: "hi", id: "IN1" });
    const session = manager.get(id);

    const text = await session.send({
      to: "5511999990001",
      isGroup: false,
      body: "Hello Ana",
      quoted: { wid: "IN1", fromMe: false, body: "hi" },
    });
    const voice = await session.send({
      to: "5511999990001",
      isGroup: false,
      body: "",
      media: { data: Buffer.from("OggS"), mimetype: "audio/ogg", filename: "voice.ogg", asVoice: true },
    });
    await session.send({ to: "5511999990009", isGroup: false, body: "other" });
    expect(text.wid).toMatch(/^3EB0/);
    const received = hub.outbound(id, "5511999990001");
    expect(received).toHaveLength(2);
    expect(received[0]).toMatchObject({ wid: text.wid, body: "Hello Ana", quotedWid: "IN1", deleted: false });
    expect(received[1]).toMatchObject({
      wid: voice.wid,
      media: { mimetype: "audio/ogg", filename: "voice.ogg", size: 4, asVoice: true },
    });
    expect(hub.outbound(id)).toHaveLength(3);

    // Like WhatsApp Web, the server's acceptance is the send's answer: no ack event of its own.
    expect(text.ack).toBe(1);
    expect(rec.updates.filter((u) => u.update.ack === 1)).toHaveLength(0);
    expect(hub.outbound(id)[0].ack).toBe(1);
    await hub.ack(id, { id: text.wid, ack: 3 });
    expect(rec.updates.at(-1)!.update).toEqual({ wid: text.wid, chat: "5511999990001", fromMe: true, ack: 3 });
    expect(hub.outbound(id)[0].ack).toBe(3);

    await hub.edit(id, { id: "IN1", body: "hi, edited" });
    expect(rec.updates.at(-1)!.update).toEqual({ wid: "IN1", chat: "5511999990001", fromMe: false, editedBody: "hi, edited" });
    await hub.revoke(id, { id: "IN1" });
    expect(rec.updates.at(-1)!.update).toEqual({ wid: "IN1", chat: "5511999990001", fromMe: false, revoked: true });
    await expect(hub.ack(id, { id: "NOPE", ack: 2 })).rejects.toMatchObject({ code: "ERR_NO_MESSAGE_FOUND" });

    await session.deleteMessage({ chat: "5511999990001", isGroup: false, wid: text.wid, fromMe: true });
    expect(hub.outbound(id)[0].deleted).toBe(true);
    await session.markRead({ chat: "5511999990001", isGroup: false, wids: ["IN1"] });
    expect(hub.reads(id)).toMatchObject([{ chat: "5511999990001", wids: ["IN1"] }]);

    const { callId } = await hub.call(id, { from: "5511999990001" });
    expect(rec.calls.at(-1)!.call).toMatchObject({ callId, from: "5511999990001", isGroup: false, isVideo: false });
    await session.rejectCall(rec.calls.at(-1)!.call);
    expect(hub.rejectedCalls(id)).toEqual([callId]);

    await expect(session.checkNumber("+55 (11) 99999-0001")).resolves.toBe("5511999990001");
    await expect(session.checkNumber("1234567")).rejects.toMatchObject({ code: "ERR_WAPP_INVALID_CONTACT" });
    await expect(session.checkNumber("1234567890123456")).rejects.toMatchObject({ code: "ERR_WAPP_INVALID_CONTACT" });
    await expect(session.profilePictureUrl("5511999990001", false)).resolves.toBeUndefined();
  });

  it("reconnects a dropped connection with capped backoff and reports the retries", async () => {
    const { hub, rec, manager } = setup({ backoff: { initialMs: 20, maxMs: 30 } });
    const id = await insertConnection(database.db, "simulator");
    await manager.start(id);
    const before = Date.now();
    hub.disconnect(id);
    expect(manager.isConnected(id)).toBe(false);
    expect(() => manager.get(id)).toThrow(expect.objectContaining({ code: "ERR_WAPP_NOT_INITIALIZED" }));
    await expect(hub.inbound(id, { from: "5511999990001", body: "lost" })).rejects.toMatchObject({
      code: "ERR_WAPP_NOT_INITIALIZED",
    });
    await vi.waitFor(() => expect(manager.isConnected(id)).toBe(true));
    expect(Date.now() - before).toBeGreaterThanOrEqual(15);
    expect(rec.states.map((s) => s.state)).toContainEqual(
      expect.objectContaining({ status: "TIMEOUT", retries: 1, reconnecting: true }),
    );

    hub.disconnect(id);
    await vi.waitFor(() => expect(manager.isConnected(id)).toBe(true));
    // A successful connection resets the count, so the next drop is retry 1 again.
    expect(rec.states.filter((s) => s.state.status === "TIMEOUT").map((s) => s.state.retries)).toEqual([1, 1]);
    expect(rec.statuses(id).slice(-2)).toEqual(["OPENING", "CONNECTED"]);
  });

  it("counts retries while reconnecting keeps failing, with the delay capped", async () => {
    const { hub, rec } = setup();
    const id = await insertConnection(database.db, "simulator");
    let failures = 3;
    const flaky = createSessionManager({
      store: createChannelStore(database.db),
      factories: {
        baileys: unused,
        simulator: (context) => {
          const session = hub.factory(context);
          return {
            ...session,
            start: async () => {
              if (failures-- > 0) throw new Error("network down");
              await session.start();
            },
          };
        },
      },
      logger: silentLogger(),
      sink: rec.sink,
      onState: rec.onState,
      mediaMaxBytes: 64 * 1024 * 1024,
      backoff: { initialMs: 5, maxMs: 20 },
    });
    try {
      await flaky.start(id);
      await vi.waitFor(() => expect(flaky.isConnected(id)).toBe(true));
      const retries = rec.states.filter((s) => s.state.status === "TIMEOUT").map((s) => s.state.retries);
      expect(retries).toEqual([1, 2, 3]);
      expect(rec.states.at(-1)!.state).toEqual({
        status: "CONNECTED",
        qrcode: "",
        pairingCode: "",
        retries: 0,
        statusReason: null,
      });
    } finally {
      await flaky.stopAll();
    }
  });

  it("disconnect logs out without reconnecting; a new QR pairs again", async () => {
    const { hub, rec, manager } = setup({ backoff: { initialMs: 5, maxMs: 5 } });
    const id = await insertConnection(database.db, "simulator");
    await manager.start(id);
    await manager.disconnect(id);
    expect(rec.states.at(-1)!.state).toEqual({
      status: "DISCONNECTED",
      qrcode: "",
      pairingCode: "",
      retries: 0,
      statusReason: null,
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(manager.isConnected(id)).toBe(false);
    expect(manager.status(id)).toBe("DISCONNECTED");
    await expect(hub.inbound(id, { from: "5511999990001", body: "x" })).rejects.toMatchObject({
      code: "ERR_WAPP_NOT_INITIALIZED",
    });

    const before = rec.states.length;
    await manager.requestNewQr(id);
    expect(rec.states.slice(before).map((s) => s.state.status)).toEqual(["OPENING", "qrcode", "PAIRING", "CONNECTED"]);
    expect(manager.isConnected(id)).toBe(true);
  });

  it("a logged-out session goes DISCONNECTED and waits for a new QR", async () => {
    const { rec, manager } = setup({ backoff: { initialMs: 5, maxMs: 5 } });
    const id = await insertConnection(database.db, "simulator");
    let closeIt: (() => void) | undefined;
    const logoutFactory: ChannelFactory = (context) => ({
      ...createSimulatorHub({ qrDelayMs: 0 }).factory(context),
      start: async () => {
        context.handlers.onStatus("CONNECTED");
        closeIt = () => context.handlers.onClosed({ reason: "loggedOut" });
      },
    });
    const other = createSessionManager({
      store: createChannelStore(database.db),
      factories: { baileys: unused, simulator: logoutFactory },
      logger: silentLogger(),
      sink: rec.sink,
      onState: rec.onState,
      mediaMaxBytes: 64 * 1024 * 1024,
      backoff: { initialMs: 5, maxMs: 5 },
    });
    try {
      await other.start(id);
      expect(other.isConnected(id)).toBe(true);
      closeIt!();
      await vi.waitFor(() => expect(other.status(id)).toBe("DISCONNECTED"));
      await new Promise((r) => setTimeout(r, 30));
      expect(other.status(id)).toBe("DISCONNECTED");
      expect(rec.states.at(-1)!.state).toEqual({
        status: "DISCONNECTED",
        qrcode: "",
        pairingCode: "",
        retries: 0,
        statusReason: "LOGGED_OUT",
      });
    } finally {
      await other.stopAll();
    }
    expect(manager.status(id)).toBeUndefined();
  });

  it("remove forgets the connection; unknown connections are refused", async () => {
    const { hub, manager } = setup();
    const id = await insertConnection(database.db, "simulator");
    await manager.start(id);
    await manager.remove(id);
    expect(manager.provider(id)).toBeUndefined();
    expect(() => manager.get(id)).toThrow(expect.objectContaining({ code: "ERR_WAPP_NOT_INITIALIZED" }));
    await expect(hub.inbound(id, { from: "5511999990001", body: "x" })).rejects.toMatchObject({
      code: "ERR_WAPP_NOT_INITIALIZED",
    });
    await expect(manager.start(999_999)).rejects.toMatchObject({ code: "ERR_NO_WAPP_FOUND" });
  });
});
