import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChannelSession } from "../../src/channels/channel.js";
import { channelContext, insertConnection } from "../channel-support.js";
import { openTestDatabase } from "../harness.js";
import { type Recorded, recordingHandlers } from "./baileys-test-rig.js";
import { localWhatsApp, OFFLINE_DRAINED, pairedDevice } from "./real-whatsapp.js";

/**
 * The real makeWASocket, created by Zapdesk's adapter factory with its database auth state,
 * against a silent local server: Baileys' own stanza handlers (handleReceipt, handleBadAck,
 * handleCall, group notifications) turn server stanzas into events, and the adapter into exactly
 * what the pipeline gets.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>>;
let session: ChannelSession;
let rec: Recorded;
let ws: Awaited<ReturnType<typeof server.ws>>;

const CUSTOMER = "5511999990001@s.whatsapp.net";
const t = () => String(Math.floor(Date.now() / 1000));

beforeAll(async () => {
  database = await openTestDatabase();
  server = await localWhatsApp();
  const whatsappId = await insertConnection(database.db, "baileys");
  await pairedDevice(database.db, whatsappId);
  const recording = recordingHandlers();
  rec = recording.rec;
  session = server.factory(channelContext(database.db, whatsappId, recording.handlers));
  await session.start();
  ws = await server.ws();
  ws.emit("CB:ib,,offline", OFFLINE_DRAINED);
});
afterAll(async () => {
  await session?.stop();
  await server?.close();
  await database?.close();
  await database?.drop();
});

describe("server stanzas through the real Baileys and the adapter", () => {
  it("receipts of a message we sent become acks; Baileys merges a delivery and a read that come together", async () => {
    ws.emit("CB:receipt", { tag: "receipt", attrs: { from: CUSTOMER, id: "3EB0DELIVERED", t: t() } });
    await vi.waitFor(() =>
      expect(rec.updates.filter((u) => u.wid === "3EB0DELIVERED")).toEqual([
        { wid: "3EB0DELIVERED", chat: "5511999990001", fromMe: true, ack: 2 },
      ]),
    );
    ws.emit("CB:receipt", { tag: "receipt", attrs: { from: CUSTOMER, id: "3EB0READ", t: t() } });
    ws.emit("CB:receipt", { tag: "receipt", attrs: { from: CUSTOMER, id: "3EB0READ", t: t(), type: "read" } });
    await vi.waitFor(() => expect(rec.updates.filter((u) => u.wid === "3EB0READ").at(-1)?.ack).toBe(3));
    expect(rec.updates.filter((u) => u.wid === "3EB0READ").every((u) => u.ack === 2 || u.ack === 3)).toBe(true);
  });

  it("a NACK (error 463) becomes a refused message with its reason", async () => {
    ws.emit("CB:ack,class:message", { tag: "ack", attrs: { class: "message", from: CUSTOMER, id: "3EB0REFUSED", error: "463" } });
    await vi.waitFor(() => expect(rec.updates.find((u) => u.wid === "3EB0REFUSED")).toBeDefined());
    const refused = rec.updates.find((u) => u.wid === "3EB0REFUSED")!;
    expect(refused).toMatchObject({ chat: "5511999990001", fromMe: true, ack: -1, error: { code: "463" } });
    expect(refused.error!.title).toMatch(/may not start new chats/);
  });

  it("calls: a LID caller with caller_pn is its number (and a mapping); without it, it stays a LID", async () => {
    ws.emit("CB:call", {
      tag: "call",
      attrs: { from: "44445555666677@lid", t: t(), id: "node-1" },
      content: [
        {
          tag: "offer",
          attrs: { "call-id": "CALL-PN", "call-creator": "44445555666677@lid", caller_pn: CUSTOMER },
          content: [{ tag: "video", attrs: {} }],
        },
      ],
    });
    ws.emit("CB:call", {
      tag: "call",
      attrs: { from: "88889999000011@lid", t: t(), id: "node-2" },
      content: [{ tag: "offer", attrs: { "call-id": "CALL-LID", "call-creator": "88889999000011@lid" }, content: [] }],
    });
    await vi.waitFor(() => expect(rec.calls).toHaveLength(2));
    expect(rec.calls[0]).toMatchObject({ callId: "CALL-PN", from: "5511999990001", isGroup: false, isVideo: true });
    expect(rec.calls[1]).toMatchObject({ callId: "CALL-LID", from: "88889999000011@lid", isVideo: false });
    expect(rec.identities).toContainEqual({ lid: "44445555666677@lid", pn: "5511999990001" });
  });

  it("a member added to a group reaches the adapter (metadata refreshed) with its LID and number", async () => {
    ws.emit("CB:notification", {
      tag: "notification",
      attrs: { from: "120363041234567890@g.us", type: "w:gp2", id: "gp2-1", participant: "12121212121212@lid", t: t() },
      content: [
        {
          tag: "add",
          attrs: {},
          content: [{ tag: "participant", attrs: { jid: "34343434343434@lid", phone_number: "5511999990034@s.whatsapp.net" } }],
        },
      ],
    });
    await vi.waitFor(() => expect(rec.identities).toContainEqual({ lid: "34343434343434@lid", pn: "5511999990034" }));
    // The participant change is a stub, not a chat message.
    expect(rec.messages).toEqual([]);
  });

  it("a status post is turned away before decryption: no sender key stored, nothing for the pipeline", async () => {
    ws.emit("CB:message", {
      tag: "message",
      attrs: { id: "3ASTATUS01", from: "status@broadcast", participant: CUSTOMER, t: t(), type: "text" },
      content: [{ tag: "enc", attrs: { v: "2", type: "skmsg" }, content: Buffer.from([1, 2, 3]) }],
    });
    await vi.waitFor(async () =>
      expect((await server.sentNodes()).find((n) => n.tag === "ack" && n.attrs.id === "3ASTATUS01")?.attrs.error).toBe("500"),
    );
    expect(rec.messages).toEqual([]);
  });

  it("Baileys acknowledged the calls and the notification to the server, as WhatsApp expects", async () => {
    await vi.waitFor(async () => {
      const acked = (await server.sentNodes()).filter((n) => n.tag === "ack").map((n) => n.attrs.id);
      expect(acked).toEqual(expect.arrayContaining(["node-1", "node-2", "gp2-1"]));
    });
  });
});
