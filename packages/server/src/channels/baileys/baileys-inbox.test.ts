import { proto } from "@whiskeysockets/baileys";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectedSession, fakeBaileys, recordingHandlers } from "../../../test/baileys/baileys-test-rig.js";
import { CUSTOMER, incoming } from "../../../test/baileys/inbound-helpers.js";
import { channelContext, insertConnection } from "../../../test/channel-support.js";
import { openTestDatabase } from "../../../test/harness.js";
import { contacts, inboundEvents, lidMappings, messages, tickets } from "../../db/schema.js";
import { createInboundLog } from "../../modules/connections/inbound-log.repo.js";
import { createDurableQueue } from "./baileys-inbox.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

const logRows = (whatsappId: number) =>
  database.db
    .select({
      key: inboundEvents.eventKey,
      kind: inboundEvents.kind,
      status: inboundEvents.status,
      attempts: inboundEvents.attempts,
    })
    .from(inboundEvents)
    .where(eq(inboundEvents.whatsappId, whatsappId));

describe("the durable inbound log", () => {
  it("a message is in the log before the pipeline sees it, and marked done only after", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const { sockets, factory } = fakeBaileys();
    const { rec, handlers } = recordingHandlers();
    const seenInLog: string[] = [];
    const session = factory(
      channelContext(database.db, whatsappId, {
        ...handlers,
        onMessage: async (message) => {
          seenInLog.push(...(await logRows(whatsappId)).map((r) => `${r.key}:${r.status}`));
          await handlers.onMessage(message);
        },
      }),
    );
    await session.start();
    const rig = { socket: sockets[0], rec, session };
    rig.socket.open();
    const message = incoming({ conversation: "logged first" });
    rig.socket.receive(message);
    await vi.waitFor(async () =>
      expect(await logRows(whatsappId)).toMatchObject([{ key: `msg:${message.key.id}`, status: "done" }]),
    );
    expect(seenInLog).toEqual([`msg:${message.key.id}:pending`]);
    expect((await logRows(whatsappId))[0].kind).toBe("baileys.message");

    // WhatsApp delivering it again changes nothing.
    rig.socket.receive(message);
    rig.socket.receive(incoming({ conversation: "next" }));
    await vi.waitFor(() => expect(rig.rec.messages.map((m) => m.body)).toEqual(["logged first", "next"]));
    await rig.session.stop();
  });

  it("what the pipeline failed on stays pending and is replayed first when the session starts again", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const rig = await connectedSession(database.db, whatsappId);
    const failed = rig.failNextMessage();
    const message = incoming({ conversation: "the database hiccuped" });
    rig.socket.receive(message);
    await failed;
    await vi.waitFor(async () => expect(await logRows(whatsappId)).toMatchObject([{ status: "pending", attempts: 1 }]));
    await rig.session.stop();

    const { sockets, factory } = fakeBaileys();
    const { rec, handlers } = recordingHandlers();
    const session = factory(channelContext(database.db, whatsappId, handlers));
    await session.start();
    sockets[0].receive(incoming({ conversation: "arrived after the restart" }));
    await vi.waitFor(() =>
      expect(rec.messages.map((m) => m.body)).toEqual(["the database hiccuped", "arrived after the restart"]),
    );
    expect(rec.messages[0]).toMatchObject({ wid: message.key.id, chat: "5511999990001", sender: { name: "Ana" } });
    await vi.waitFor(async () => expect((await logRows(whatsappId)).every((r) => r.status === "done")).toBe(true));
    await session.stop();
  });

  it("a decryption failure is handed over as a placeholder; the sender's retried copy (same id) follows it, once", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const rig = await connectedSession(database.db, whatsappId);
    const retried = incoming({ conversation: "second try" });
    rig.socket.ciphertextStub(retried.key);
    // Each failed attempt brings another stub of the same id.
    rig.socket.ciphertextStub(retried.key);
    rig.socket.receive(retried);
    rig.socket.receive(retried);
    await vi.waitFor(() => expect(rig.rec.messages).toHaveLength(2));
    expect(rig.rec.messages[0]).toMatchObject({
      wid: retried.key.id,
      type: "placeholder",
      body: "",
      chat: "5511999990001",
      sender: { name: "Ana" },
    });
    expect(rig.rec.messages[1]).toMatchObject({ wid: retried.key.id, type: "chat", body: "second try" });
    await vi.waitFor(async () =>
      expect((await logRows(whatsappId)).map((r) => `${r.key}:${r.status}`).sort()).toEqual([
        `msg:${retried.key.id}:done`,
        `stub:${retried.key.id}:done`,
      ]),
    );
    await rig.session.stop();
  });

  it("'Message absent from node': the phone's resend (an upsert with a requestId) follows the placeholder", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const rig = await connectedSession(database.db, whatsappId);
    const lead = incoming({ conversation: "Olá! Vi o anúncio." });
    rig.socket.ciphertextStub(lead.key, "Ana", "Message absent from node");
    rig.socket.ev.emit("messages.upsert", { messages: [lead], type: "notify", requestId: "3EB0PDOREQUEST" });
    await vi.waitFor(() =>
      expect(rig.rec.messages.map((m) => `${m.type}:${m.body}`)).toEqual(["placeholder:", "chat:Olá! Vi o anúncio."]),
    );
    await rig.session.stop();
  });

  it("a placeholder left pending by a crash is replayed as a placeholder", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const rig = await connectedSession(database.db, whatsappId);
    const failed = rig.failNextMessage();
    const stub = rig.socket.ciphertextStub({ remoteJid: CUSTOMER, id: "3ASTUBREPLAY" });
    await failed;
    await rig.session.stop();
    expect(stub.messageStubParameters).toEqual(["Bad MAC"]);

    const { sockets, factory } = fakeBaileys();
    const { rec, handlers } = recordingHandlers();
    const session = factory(channelContext(database.db, whatsappId, handlers));
    await session.start();
    sockets[0].open();
    await vi.waitFor(() => expect(rec.messages).toHaveLength(1));
    expect(rec.messages[0]).toMatchObject({ wid: "3ASTUBREPLAY", type: "placeholder", sender: { name: "Ana" } });
    expect(rec.messages[0].raw).toMatchObject({ messageStubParameters: ["Bad MAC"] });
    await session.stop();
  });

  it("a stub of our own device's message, or one in the phone's history, is no placeholder", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const rig = await connectedSession(database.db, whatsappId);
    rig.socket.ciphertextStub({ remoteJid: "5511900000000@s.whatsapp.net", fromMe: true, id: "3APEERSTUB" });
    rig.socket.history([{ ...incoming({ conversation: "x" }), message: undefined, messageStubType: 1 }]);
    rig.socket.receive(incoming({ conversation: "marker" }));
    await vi.waitFor(() => expect(rig.rec.messages.map((m) => m.body)).toEqual(["marker"]));
    await rig.session.stop();
  });

  it("calls and refusals are logged too; plain acks are not", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const rig = await connectedSession(database.db, whatsappId);
    rig.socket.ev.emit("call", [
      { chatId: CUSTOMER, from: CUSTOMER, id: "CALL-LOG", date: new Date(), status: "offer", offline: false },
    ]);
    rig.socket.nack({ remoteJid: CUSTOMER, id: "3EB0NACKED" }, "479");
    rig.socket.ev.emit("messages.update", [
      { key: { remoteJid: CUSTOMER, id: "3EB0ACKED", fromMe: true }, update: { status: proto.WebMessageInfo.Status.READ } },
    ]);
    await vi.waitFor(() => expect(rig.rec.updates).toHaveLength(2));
    await vi.waitFor(() => expect(rig.rec.calls).toHaveLength(1));
    const rows = await logRows(whatsappId);
    expect(rows.map((r) => r.key).sort()).toEqual(["call:CALL-LOG", "nack:3EB0NACKED"]);
    await rig.session.stop();
  });
});

describe("a replay beside live events", () => {
  it("runs each logged event once: a live event written while the replay reads the log is left to its own task", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const inbox = createInboundLog(database.db, whatsappId);
    // Left pending by an earlier run: the replay's to run.
    await inbox.record("test.event", "left", { key: "left" });
    const silent = { level: "silent", child: () => silent, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const queue = createDurableQueue(inbox, silent as unknown as Parameters<typeof createDurableQueue>[1]);
    const runs: string[] = [];
    // The session starts (a replay is queued) and WhatsApp delivers at once, as it does after a reconnect.
    queue.replay(async (event) => {
      runs.push(`replay:${(event.payload as { key: string }).key}`);
    });
    for (const key of ["live 1", "live 2"]) {
      queue.receive("test.event", key, { key }, async () => {
        runs.push(`live:${key}`);
      });
    }
    queue.receiveAll("test.batch", [{ key: "live 3", payload: {}, item: "live 3" }], async (items) => {
      runs.push(...items.map((item) => `live:${item}`));
      return items.map(() => ({ status: "fulfilled" as const, value: undefined }));
    });
    await queue.idle();
    expect(runs).toEqual(["replay:left", "live:live 1", "live:live 2", "live:live 3"]);
    expect(await inbox.pending(10)).toEqual([]);
  });
});

describe("backfill after a reconnect", () => {
  it("asks the phone for the history before the first new message of an active chat, and stores only the gap", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const [contact] = await database.db.insert(contacts).values({ name: "Ana", number: "5511999990001" }).returning();
    const [ticket] = await database.db.insert(tickets).values({ contactId: contact.id, whatsappId, status: "open" }).returning();
    const lastStored = new Date(1_700_000_100 * 1000);
    await database.db
      .insert(messages)
      .values({ ticketId: ticket.id, whatsappId, wid: "3AOLD", body: "before", createdAt: lastStored });

    const rig = await connectedSession(database.db, whatsappId);
    const live = incoming({ conversation: "hello? anyone?" }, {}, { messageTimestamp: 1_700_000_300 });
    rig.socket.receive(live);
    await vi.waitFor(() => expect(rig.socket.historyRequests).toHaveLength(1));
    expect(rig.socket.historyRequests[0]).toMatchObject({ count: 50, key: live.key, timestampMs: 1_700_000_300_000 });
    // A second message of the same chat does not ask again; a chat without an active ticket never does.
    rig.socket.receive(incoming({ conversation: "again" }, {}, { messageTimestamp: 1_700_000_301 }));
    rig.socket.receive(incoming({ conversation: "stranger" }, { remoteJid: "5511999990077@s.whatsapp.net" }));
    await vi.waitFor(() => expect(rig.rec.messages).toHaveLength(3));
    expect(rig.socket.historyRequests).toHaveLength(1);

    const lost = incoming({ conversation: "the message lost in the crash" }, {}, { messageTimestamp: 1_700_000_200 });
    const older = incoming({ conversation: "already stored long ago" }, {}, { messageTimestamp: 1_700_000_000 });
    const elsewhere = incoming(
      { conversation: "old chat" },
      { remoteJid: "5511999990088@s.whatsapp.net" },
      { messageTimestamp: 1_700_000_250 },
    );
    rig.socket.history([older, lost, elsewhere, live]);
    await vi.waitFor(() => expect(rig.rec.messages.map((m) => m.body)).toContain("the message lost in the crash"));
    await new Promise((r) => setTimeout(r, 50));
    expect(rig.rec.messages.map((m) => m.body)).toEqual(["hello? anyone?", "again", "stranger", "the message lost in the crash"]);
    const logged = await database.db
      .select()
      .from(inboundEvents)
      .where(and(eq(inboundEvents.whatsappId, whatsappId), eq(inboundEvents.eventKey, `msg:${lost.key.id}`)));
    expect(logged).toHaveLength(1);
    await rig.session.stop();
  });

  it("works in LID-addressed chats: a chat stored by number reached by LID, a chat stored by LID answered by number", async () => {
    const whatsappId = await insertConnection(database.db, "baileys");
    const lastStored = new Date(1_700_000_100 * 1000);
    const activeChat = async (number: string, lid: string | null) => {
      const [contact] = await database.db.insert(contacts).values({ name: number, number, lid }).returning();
      const [ticket] = await database.db
        .insert(tickets)
        .values({ contactId: contact.id, whatsappId, status: "open" })
        .returning();
      await database.db
        .insert(messages)
        .values({ ticketId: ticket.id, whatsappId, wid: `3AOLD${contact.id}`, body: "before", createdAt: lastStored });
    };
    // Stored by number; WhatsApp now names the chat by a LID only Baileys' LID store can resolve.
    await activeChat("5511999990031", null);
    // Stored by LID; our LID table knows its number (learned after the ticket began).
    await activeChat("88880000000032@lid", null);
    await database.db.insert(lidMappings).values({ lid: "88880000000032@lid", pn: "5511999990032" });

    const rig = await connectedSession(database.db, whatsappId);
    rig.socket.lidMap.set("88880000000031@lid", "5511999990031@s.whatsapp.net");
    const byLid = incoming({ conversation: "olá?" }, { remoteJid: "88880000000031@lid" }, { messageTimestamp: 1_700_000_300 });
    const byNumber = incoming(
      { conversation: "alguém?" },
      { remoteJid: "5511999990032@s.whatsapp.net", remoteJidAlt: "88880000000032@lid" },
      { messageTimestamp: 1_700_000_300 },
    );
    rig.socket.receive(byLid);
    rig.socket.receive(byNumber);
    await vi.waitFor(() => expect(rig.socket.historyRequests).toHaveLength(2));
    expect(rig.socket.historyRequests.map((r) => r.key.id).sort()).toEqual([byLid.key.id, byNumber.key.id].sort());

    // The phone answers the first chat by LID and the second by number alone.
    const lostByLid = incoming(
      { conversation: "lost 31" },
      { remoteJid: "88880000000031@lid" },
      { messageTimestamp: 1_700_000_200 },
    );
    const oldByLid = incoming(
      { conversation: "old 31" },
      { remoteJid: "88880000000031@lid" },
      { messageTimestamp: 1_700_000_000 },
    );
    const lostByNumber = incoming(
      { conversation: "lost 32" },
      { remoteJid: "5511999990032@s.whatsapp.net" },
      { messageTimestamp: 1_700_000_200 },
    );
    rig.socket.history([oldByLid, lostByLid]);
    rig.socket.history([lostByNumber]);
    await vi.waitFor(() => expect(rig.rec.messages.map((m) => m.body).sort()).toEqual(["alguém?", "lost 31", "lost 32", "olá?"]));
    expect(rig.rec.messages.find((m) => m.body === "lost 31")).toMatchObject({ chat: "5511999990031" });
    await rig.session.stop();
  });
});
