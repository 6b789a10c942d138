import { proto, type WAMessage } from "@whiskeysockets/baileys";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectedSession, fakeBaileys, type Rig, recordingHandlers } from "../../../test/baileys/baileys-test-rig.js";
import type { FakeSocket } from "../../../test/baileys/fake-socket.js";
import { channelContext, insertConnection } from "../../../test/channel-support.js";
import { openTestDatabase } from "../../../test/harness.js";
import { contacts, messages, tickets } from "../../db/schema.js";
import type { ChannelSession } from "../channel.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let rig: Rig;
let socket: FakeSocket;
let session: ChannelSession;
let whatsappId: number;

beforeAll(async () => {
  database = await openTestDatabase();
  whatsappId = await insertConnection(database.db, "baileys");
  rig = await connectedSession(database.db, whatsappId);
  ({ socket, session } = rig);
});
afterAll(async () => {
  await session.stop();
  await database.close();
  await database.drop();
});

const JID = "5511999990001@s.whatsapp.net";

describe("Baileys outbound", () => {
  it("sends text and returns the wid, timestamp and raw of the sent message", async () => {
    const sent = await session.send({ to: "5511999990001", isGroup: false, body: "Hello *Ana*" });
    expect(socket.sent.at(-1)).toMatchObject({ jid: JID, content: { text: "Hello *Ana*" }, options: undefined });
    expect(sent.wid).toMatch(/^3EB0FAKE/);
    expect(sent.timestamp.getTime()).toBe(Number(socket.sent.at(-1)!.message.messageTimestamp) * 1000);
    // The full message as Baileys built it: the outbox keeps it to answer resend requests.
    expect(sent.raw).toMatchObject({
      key: { id: sent.wid, remoteJid: JID, fromMe: true },
      message: { extendedTextMessage: { text: "Hello *Ana*" } },
    });
    expect(sent.ack).toBe(1);

    await session.send({ to: "120363041234567890", isGroup: true, body: "to the group" });
    expect(socket.sent.at(-1)!.jid).toBe("120363041234567890@g.us");
  });

  it("sends with the id Zapdesk chose, so the echo matches the stored message", async () => {
    const sent = await session.send({ id: "3EB0CHOSEN0001", to: "5511999990001", isGroup: false, body: "mine" });
    expect(socket.sent.at(-1)!.options).toEqual({ messageId: "3EB0CHOSEN0001" });
    expect(sent.wid).toBe("3EB0CHOSEN0001");
  });

  it("sends image, video, document and audio with the body as caption", async () => {
    const data = Buffer.from("bytes");
    await session.send({
      to: "5511999990001",
      isGroup: false,
      body: "a photo",
      media: { data, mimetype: "image/png", filename: "p.png" },
    });
    expect(socket.sent.at(-1)!.content).toEqual({ image: data, mimetype: "image/png", caption: "a photo" });
    expect(socket.sent.at(-1)!.message.message?.imageMessage).toMatchObject({ mimetype: "image/png", caption: "a photo" });
    await session.send({
      to: "5511999990001",
      isGroup: false,
      body: "",
      media: { data, mimetype: "video/mp4", filename: "v.mp4" },
    });
    expect(socket.sent.at(-1)!.content).toEqual({ video: data, mimetype: "video/mp4", caption: undefined });
    await session.send({
      to: "5511999990001",
      isGroup: false,
      body: "",
      media: { data, mimetype: "image/gif", filename: "a.gif" },
    });
    expect(socket.sent.at(-1)!.content).toMatchObject({ document: data, mimetype: "image/gif", fileName: "a.gif" });
    await session.send({
      to: "5511999990001",
      isGroup: false,
      body: "the invoice",
      media: { data, mimetype: "application/pdf", filename: "invoice.pdf" },
    });
    expect(socket.sent.at(-1)!.content).toEqual({
      document: data,
      mimetype: "application/pdf",
      fileName: "invoice.pdf",
      caption: "the invoice",
    });
    await session.send({
      to: "5511999990001",
      isGroup: false,
      body: "",
      media: { data, mimetype: "audio/mpeg", filename: "song.mp3" },
    });
    expect(socket.sent.at(-1)!.content).toEqual({ audio: data, mimetype: "audio/mpeg", ptt: false });
  });

  it("a voice note that could not be converted still goes as ptt audio, in its own format", async () => {
    const data = Buffer.from("ID3 not converted");
    await session.send({
      to: "5511999990001",
      isGroup: false,
      body: "",
      media: { data, mimetype: "audio/mpeg", filename: "v.mp3", asVoice: true },
    });
    expect(socket.sent.at(-1)!.content).toEqual({ audio: data, mimetype: "audio/mpeg", ptt: true });
  });

  it("quotes the stored message (group participant kept), or a stand-in built from its wid", async () => {
    const original: WAMessage = {
      key: { remoteJid: "120363041234567890@g.us", participant: "5511999990003@s.whatsapp.net", fromMe: false, id: "3AQUOTED" },
      message: proto.Message.fromObject({ conversation: "can you help?" }),
      messageTimestamp: 1_700_000_000,
      pushName: "Caio",
    };
    socket.ev.emit("messages.upsert", { messages: [original], type: "notify" });
    await vi.waitFor(() => expect(rig.rec.messages.at(-1)?.wid).toBe("3AQUOTED"));
    const stored = JSON.parse(JSON.stringify(rig.rec.messages.at(-1)!.raw));

    await session.send({
      to: "120363041234567890",
      isGroup: true,
      body: "sure",
      quoted: { wid: "3AQUOTED", fromMe: false, body: "can you help?", raw: stored },
    });
    const quoted = socket.sent.at(-1)!.options!.quoted!;
    expect(quoted.key).toEqual(original.key);
    expect(quoted.message?.conversation).toBe("can you help?");

    await session.send({
      to: "5511999990001",
      isGroup: false,
      body: "yes",
      quoted: { wid: "3AOLD", fromMe: true, body: "our earlier text" },
    });
    const standIn = socket.sent.at(-1)!.options!.quoted!;
    expect(standIn.key).toEqual({ remoteJid: JID, id: "3AOLD", fromMe: true });
    expect(standIn.message?.conversation).toBe("our earlier text");
  });

  it("deletes for everyone with the stored key, and marks messages read", async () => {
    const sent = await session.send({ to: "5511999990001", isGroup: false, body: "oops" });
    await session.deleteMessage({ chat: "5511999990001", isGroup: false, wid: sent.wid, fromMe: true, raw: sent.raw });
    expect(socket.sent.at(-1)).toMatchObject({ jid: JID, content: { delete: { remoteJid: JID, id: sent.wid, fromMe: true } } });
    await session.deleteMessage({ chat: "5511999990001", isGroup: false, wid: "3AUNKNOWN", fromMe: true });
    expect(socket.sent.at(-1)!.content).toEqual({ delete: { remoteJid: JID, id: "3AUNKNOWN", fromMe: true } });

    await session.markRead({ chat: "5511999990001", isGroup: false, wids: ["3A1", "3A2"] });
    expect(socket.reads.at(-1)).toEqual([
      { remoteJid: JID, id: "3A1", fromMe: false },
      { remoteJid: JID, id: "3A2", fromMe: false },
    ]);
  });

  it("checks numbers: canonical number, invalid contact, check failure", async () => {
    socket.onWhatsAppResult = async () => [{ jid: "551199990001@s.whatsapp.net", exists: true }];
    await expect(session.checkNumber("+55 11 9999-0001")).resolves.toBe("551199990001");
    socket.onWhatsAppResult = async () => [];
    await expect(session.checkNumber("5511000000000")).rejects.toMatchObject({ code: "ERR_WAPP_INVALID_CONTACT" });
    socket.onWhatsAppResult = async () => {
      throw new Error("timed out");
    };
    await expect(session.checkNumber("5511999990001")).rejects.toMatchObject({ code: "ERR_WAPP_CHECK_CONTACT" });
  });

  it("profile pictures are undefined on error", async () => {
    await expect(session.profilePictureUrl("5511999990001", false)).resolves.toBe(`https://pps.whatsapp.net/${JID}.jpg`);
    await expect(session.profilePictureUrl("0123", false)).resolves.toBeUndefined();
  });

  it("a failed send is ERR_SENDING_WAPP_MSG; nothing is sent before the connection opens", async () => {
    socket.failSend = new Error("socket closed");
    await expect(session.send({ to: "5511999990001", isGroup: false, body: "x" })).rejects.toMatchObject({
      code: "ERR_SENDING_WAPP_MSG",
    });
    await expect(session.deleteMessage({ chat: "5511999990001", isGroup: false, wid: "X", fromMe: true })).rejects.toMatchObject({
      code: "ERR_DELETE_WAPP_MSG",
    });
    socket.failSend = undefined;

    const { sockets, factory } = fakeBaileys();
    const other = factory(
      channelContext(database.db, await insertConnection(database.db, "baileys"), recordingHandlers().handlers),
    );
    await other.start();
    await expect(other.send({ to: "5511999990001", isGroup: false, body: "x" })).rejects.toMatchObject({
      code: "ERR_WAPP_NOT_INITIALIZED",
    });
    await expect(other.checkNumber("5511999990001")).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    await expect(other.profilePictureUrl("5511999990001", false)).resolves.toBeUndefined();
    expect(sockets[0].sent).toEqual([]);
    await other.stop();
  });

  it("group read receipts name each message's author from the stored key", async () => {
    const group = "120363041234567891@g.us";
    const original: WAMessage = {
      key: { remoteJid: group, participant: "5511999990003@s.whatsapp.net", fromMe: false, id: "3AGROUPREAD" },
      message: proto.Message.fromObject({ conversation: "hello group" }),
      messageTimestamp: 1_700_000_000,
    };
    socket.receive(original);
    await vi.waitFor(() => expect(rig.rec.messages.at(-1)?.wid).toBe("3AGROUPREAD"));
    // Stored as the pipeline stores it: with the provider data the adapter handed over.
    const [contact] = await database.db
      .insert(contacts)
      .values({ name: "Team", number: "120363041234567891", isGroup: true })
      .returning();
    const [ticket] = await database.db.insert(tickets).values({ contactId: contact.id, whatsappId, isGroup: true }).returning();
    await database.db
      .insert(messages)
      .values({ ticketId: ticket.id, whatsappId, wid: "3AGROUPREAD", body: "hello group", raw: rig.rec.messages.at(-1)!.raw });

    await session.markRead({ chat: "120363041234567891", isGroup: true, wids: ["3AGROUPREAD", "3AUNSTORED"] });
    expect(socket.reads.at(-1)).toEqual([original.key, { remoteJid: group, id: "3AUNSTORED", fromMe: false }]);
  });
});
