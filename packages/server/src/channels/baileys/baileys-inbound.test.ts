import { proto, type WAMessage } from "@whiskeysockets/baileys";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase } from "../../../test/harness.js";
import type { ChannelSession } from "../channel.js";
import { insertConnection } from "../test-support.js";
import { connectedSession, type Recorded, type Rig } from "./baileys-test-rig.js";
import type { FakeSocket } from "./fake-socket.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let rig: Rig;
let socket: FakeSocket;
let rec: Recorded;
let session: ChannelSession;

beforeAll(async () => {
  database = await openTestDatabase();
  rig = await connectedSession(database.db, await insertConnection(database.db, "baileys"));
  ({ socket, rec, session } = rig);
});
afterAll(async () => {
  await session.stop();
  await database.close();
  await database.drop();
});

const CUSTOMER = "5511999990001@s.whatsapp.net";
let n = 0;
/** A message as Baileys' decoder builds it: a plain key (with its Alt fields) around a proto.Message. */
function incoming(message: proto.IMessage, key: Partial<WAMessage["key"]> = {}, extra: Partial<WAMessage> = {}): WAMessage {
  n += 1;
  return {
    key: { remoteJid: CUSTOMER, fromMe: false, id: `3A${String(n).padStart(6, "0")}`, ...key },
    messageTimestamp: 1_700_000_000 + n,
    pushName: "Ana",
    message: proto.Message.fromObject(message),
    ...extra,
  };
}

async function deliver(message: WAMessage, type: "notify" | "append" = "notify") {
  const before = rec.messages.length + rec.updates.length;
  socket.ev.emit("messages.upsert", { messages: [message], type });
  await vi.waitFor(() => expect(rec.messages.length + rec.updates.length).toBeGreaterThan(before));
  return rec.messages.at(-1)!;
}

/** Emits something that must be ignored, then a marker message; only the marker may arrive. */
async function expectIgnored(message: WAMessage) {
  const before = rec.messages.length + rec.updates.length;
  socket.ev.emit("messages.upsert", { messages: [message], type: "notify" });
  const marker = await deliver(incoming({ conversation: "marker" }));
  expect(marker.body).toBe("marker");
  expect(rec.messages.length + rec.updates.length).toBe(before + 1);
}

describe("Baileys inbound messages", () => {
  it("text and extended text, with sender, timestamp, reply and raw", async () => {
    const text = incoming({ conversation: "Hello" });
    const got = await deliver(text);
    expect(got).toMatchObject({
      wid: text.key.id,
      chat: "5511999990001",
      isGroup: false,
      fromMe: false,
      type: "chat",
      body: "Hello",
      sender: { number: "5511999990001", name: "Ana" },
    });
    expect(got.timestamp).toEqual(new Date(Number(text.messageTimestamp) * 1000));
    expect(got.raw).toMatchObject({ key: { id: text.key.id, remoteJid: CUSTOMER }, message: { conversation: "Hello" } });

    const reply = await deliver(
      incoming({ extendedTextMessage: { text: "a reply", contextInfo: { stanzaId: text.key.id, participant: CUSTOMER } } }),
    );
    expect(reply).toMatchObject({ type: "chat", body: "a reply", quotedWid: text.key.id });
  });

  it("image, video, voice note, document (with caption wrapper) and sticker, downloadable", async () => {
    const mediaKey = Buffer.alloc(32, 7);
    const image = incoming({
      imageMessage: {
        mimetype: "image/jpeg",
        caption: "look",
        mediaKey,
        directPath: "/v/t62/abc",
        url: "https://mmg.whatsapp.net/abc",
      },
    });
    const got = await deliver(image);
    expect(got).toMatchObject({ type: "image", body: "look", media: { mimetype: "image/jpeg" } });
    expect(await got.media!.download()).toEqual(Buffer.from("media-bytes"));
    expect(rig.downloads.at(-1)!.key.id).toBe(image.key.id);

    expect(await deliver(incoming({ ptvMessage: { mimetype: "video/mp4" } }))).toMatchObject({ type: "video", body: "" });
    expect(await deliver(incoming({ videoMessage: { mimetype: "video/mp4", caption: "clip" } }))).toMatchObject({
      type: "video",
      body: "clip",
    });
    expect(
      await deliver(incoming({ audioMessage: { mimetype: "audio/ogg; codecs=opus", ptt: true, seconds: 3 } })),
    ).toMatchObject({
      type: "audio",
      body: "",
      media: { mimetype: "audio/ogg; codecs=opus" },
    });
    const doc = await deliver(
      incoming({
        documentWithCaptionMessage: {
          message: { documentMessage: { mimetype: "application/pdf", fileName: "invoice.pdf", caption: "the invoice" } },
        },
      }),
    );
    expect(doc).toMatchObject({
      type: "document",
      body: "the invoice",
      media: { mimetype: "application/pdf", filename: "invoice.pdf" },
    });
    expect(await deliver(incoming({ stickerMessage: { mimetype: "image/webp", isAnimated: false } }))).toMatchObject({
      type: "sticker",
      media: { mimetype: "image/webp" },
    });

    // Re-download from the stored raw data: Buffers survive the JSON round trip.
    const again = await session.downloadMedia(JSON.parse(JSON.stringify(got.raw)));
    expect(again).toEqual(Buffer.from("media-bytes"));
    const revived = rig.downloads.at(-1)!;
    expect(Buffer.isBuffer(revived.message?.imageMessage?.mediaKey)).toBe(true);
    expect(Buffer.from(revived.message!.imageMessage!.mediaKey!)).toEqual(mediaKey);
    await expect(session.downloadMedia({ nothing: true })).rejects.toMatchObject({ code: "ERR_WAPP_DOWNLOAD_MEDIA" });
  });

  it("location and contact cards (single and array)", async () => {
    const location = await deliver(
      incoming({
        locationMessage: {
          degreesLatitude: -23.5505,
          degreesLongitude: -46.6333,
          name: "Office",
          address: "Av. Paulista",
          jpegThumbnail: Buffer.from([1, 2, 3]),
        },
      }),
    );
    expect(location).toMatchObject({
      type: "location",
      location: { latitude: -23.5505, longitude: -46.6333, description: "Office\nAv. Paulista", thumbnailBase64: "AQID" },
    });

    const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:Bob\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD";
    expect(await deliver(incoming({ contactMessage: { displayName: "Bob", vcard } }))).toMatchObject({
      type: "vcard",
      body: "Bob",
      vcard,
    });
    const other = vcard.replace(/Bob/g, "Carol");
    const many = await deliver(
      incoming({
        contactsArrayMessage: {
          displayName: "2 contacts",
          contacts: [
            { displayName: "Bob", vcard },
            { displayName: "Carol", vcard: other },
          ],
        },
      }),
    );
    expect(many).toMatchObject({ type: "vcard", body: "2 contacts", vcard: `${vcard}\n${other}` });
  });

  it("group messages: chat is the group, sender the participant, group name fetched once", async () => {
    const group = "120363041234567890@g.us";
    const first = await deliver(
      incoming(
        { conversation: "hi all" },
        { remoteJid: group, participant: "5511999990003@s.whatsapp.net" },
        { pushName: "Caio" },
      ),
    );
    expect(first).toMatchObject({
      chat: "120363041234567890",
      isGroup: true,
      groupName: "Team",
      sender: { number: "5511999990003", name: "Caio" },
    });
    await deliver(incoming({ conversation: "again" }, { remoteJid: group, participant: "5511999990003:4@s.whatsapp.net" }));
    expect(rec.messages.at(-1)!.sender?.number).toBe("5511999990003");
    expect(socket.groupQueries).toEqual([group]);
  });

  it("LID addressing prefers the phone-number JID Baileys provides, else the LID store", async () => {
    const lidChat = await deliver(
      incoming({ conversation: "from lid" }, { remoteJid: "98765432101234@lid", remoteJidAlt: "5511999990004@s.whatsapp.net" }),
    );
    expect(lidChat).toMatchObject({ chat: "5511999990004", sender: { number: "5511999990004" } });

    const inGroup = await deliver(
      incoming(
        { conversation: "lid in group" },
        {
          remoteJid: "120363041234567890@g.us",
          participant: "11112222333344@lid",
          participantAlt: "5511999990005@s.whatsapp.net",
        },
      ),
    );
    expect(inGroup.sender?.number).toBe("5511999990005");

    socket.lidMap.set("55556666777788@lid", "5511999990006@s.whatsapp.net");
    expect(await deliver(incoming({ conversation: "resolved" }, { remoteJid: "55556666777788@lid" }))).toMatchObject({
      chat: "5511999990006",
    });
  });

  it("messages sent from the phone itself arrive as fromMe, live or appended", async () => {
    const fromPhone = await deliver(incoming({ conversation: "sent from my phone" }, { fromMe: true }), "append");
    expect(fromPhone).toMatchObject({ fromMe: true, chat: "5511999990001", body: "sent from my phone" });
    expect(fromPhone.sender).toBeUndefined();
    expect(await deliver(incoming({ conversation: "typed on the phone" }, { fromMe: true }))).toMatchObject({ fromMe: true });
  });

  it("ignores status, broadcast lists, newsletters, reactions and protocol noise", async () => {
    await expectIgnored(incoming({ conversation: "my status" }, { remoteJid: "status@broadcast", participant: CUSTOMER }));
    await expectIgnored(incoming({ conversation: "channel post" }, { remoteJid: "120363000000000000@newsletter" }));
    await expectIgnored(incoming({ reactionMessage: { key: { id: "X" }, text: "👍" } }));
    await expectIgnored(
      incoming({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 86400 } }),
    );
    await expectIgnored(incoming({ senderKeyDistributionMessage: { groupId: "x" } }));
  });

  it("edits (protocol message and editedMessage wrapper) and revokes become updates", async () => {
    const original = await deliver(incoming({ conversation: "typo" }));
    const type = proto.Message.ProtocolMessage.Type;
    socket.ev.emit("messages.upsert", {
      type: "notify",
      messages: [
        incoming({
          protocolMessage: {
            key: { remoteJid: CUSTOMER, fromMe: false, id: original.wid },
            type: type.MESSAGE_EDIT,
            editedMessage: { conversation: "fixed" },
          },
        }),
      ],
    });
    await vi.waitFor(() =>
      expect(rec.updates.at(-1)).toEqual({ wid: original.wid, chat: "5511999990001", fromMe: false, editedBody: "fixed" }),
    );
    socket.ev.emit("messages.upsert", {
      type: "notify",
      messages: [
        incoming({
          editedMessage: {
            message: {
              protocolMessage: {
                key: { id: original.wid },
                type: type.MESSAGE_EDIT,
                editedMessage: { extendedTextMessage: { text: "fixed twice" } },
              },
            },
          },
        }),
      ],
    });
    await vi.waitFor(() => expect(rec.updates.at(-1)).toMatchObject({ wid: original.wid, editedBody: "fixed twice" }));
    socket.ev.emit("messages.upsert", {
      type: "notify",
      messages: [incoming({ protocolMessage: { key: { id: original.wid }, type: type.REVOKE } })],
    });
    await vi.waitFor(() =>
      expect(rec.updates.at(-1)).toEqual({ wid: original.wid, chat: "5511999990001", fromMe: false, revoked: true }),
    );
  });

  it("acks from messages.update and message-receipt.update", async () => {
    const key = { remoteJid: CUSTOMER, fromMe: true, id: "3EB0ACK" };
    const Status = proto.WebMessageInfo.Status;
    socket.ev.emit("messages.update", [
      { key, update: { status: Status.SERVER_ACK } },
      { key, update: { status: Status.DELIVERY_ACK } },
      { key, update: { status: Status.READ } },
      { key, update: { status: Status.PLAYED } },
      { key, update: { status: Status.ERROR } },
      { key, update: { starred: true } },
    ]);
    await vi.waitFor(() => expect(rec.updates.filter((u) => u.wid === "3EB0ACK").map((u) => u.ack)).toEqual([1, 2, 3, 4]));
    expect(rec.updates.at(-1)).toEqual({ wid: "3EB0ACK", chat: "5511999990001", fromMe: true, ack: 4 });

    const groupKey = { remoteJid: "120363041234567890@g.us", fromMe: true, id: "3EB0GRP" };
    socket.ev.emit("message-receipt.update", [
      { key: groupKey, receipt: { userJid: "5511999990003@s.whatsapp.net", receiptTimestamp: 1_700_000_010 } },
      { key: groupKey, receipt: { userJid: "5511999990003@s.whatsapp.net", readTimestamp: 1_700_000_020 } },
    ]);
    await vi.waitFor(() => expect(rec.updates.filter((u) => u.wid === "3EB0GRP").map((u) => u.ack)).toEqual([2, 3]));
  });

  it("calls: offers reach the handlers (ringing and the rest do not) and can be rejected", async () => {
    const date = new Date("2026-01-01T10:00:00Z");
    const offer = {
      chatId: CUSTOMER,
      from: "44445555666677@lid",
      callerPn: CUSTOMER,
      id: "CALL-1",
      date,
      isVideo: true,
      status: "offer" as const,
      offline: false,
    };
    socket.ev.emit("call", [
      offer,
      { ...offer, status: "ringing" as const },
      { ...offer, id: "CALL-2", status: "terminate" as const },
    ]);
    await vi.waitFor(() => expect(rec.calls).toHaveLength(1));
    expect(rec.calls[0]).toEqual({ callId: "CALL-1", from: "5511999990001", isGroup: false, isVideo: true, timestamp: date });
    await session.rejectCall(rec.calls[0]);
    // Rejected with the JID WhatsApp used for the call, which may be a LID.
    expect(socket.rejected).toEqual([{ callId: "CALL-1", from: "44445555666677@lid" }]);
  });

  it("keeps the phone's contacts from contacts.upsert, contacts.update and history sync", async () => {
    socket.ev.emit("contacts.upsert", [
      { id: "5511999990001@s.whatsapp.net", name: "Ana Saved", notify: "Ana" },
      { id: "120363041234567890@g.us", name: "A group" },
    ]);
    socket.ev.emit("contacts.update", [
      { id: "5511999990002@s.whatsapp.net", notify: "Bob" },
      { id: "5511999990001@s.whatsapp.net", notify: "Ana B." },
    ]);
    socket.ev.emit("messaging-history.set", {
      chats: [],
      messages: [],
      isLatest: true,
      contacts: [
        { id: "77778888999900@lid", phoneNumber: "5511999990007@s.whatsapp.net", notify: "Lia" },
        { id: "12121212@lid" },
      ],
    });
    const contacts = await session.listContacts();
    expect(contacts).toEqual(
      expect.arrayContaining([
        { number: "5511999990001", name: "Ana Saved" },
        { number: "5511999990002", name: "Bob" },
        { number: "5511999990007", name: "Lia" },
      ]),
    );
    expect(contacts).toHaveLength(3);
  });

  it("a failing pipeline does not stop the next messages", async () => {
    const fail = rig.failNextMessage();
    socket.ev.emit("messages.upsert", { type: "notify", messages: [incoming({ conversation: "boom" })] });
    await fail;
    expect(await deliver(incoming({ conversation: "still flowing" }))).toMatchObject({ body: "still flowing" });
  });
});
