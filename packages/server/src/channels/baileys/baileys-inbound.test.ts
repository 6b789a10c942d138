import { buffer } from "node:stream/consumers";
import { proto } from "@whiskeysockets/baileys";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectedSession, type Recorded, type Rig } from "../../../test/baileys/baileys-test-rig.js";
import type { FakeSocket } from "../../../test/baileys/fake-socket.js";
import { CUSTOMER, driver, incoming } from "../../../test/baileys/inbound-helpers.js";
import { insertConnection } from "../../../test/channel-support.js";
import { openTestDatabase } from "../../../test/harness.js";
import type { ChannelSession } from "../channel.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let rig: Rig;
let socket: FakeSocket;
let rec: Recorded;
let session: ChannelSession;
let deliver: ReturnType<typeof driver>["deliver"];
let expectIgnored: ReturnType<typeof driver>["expectIgnored"];

beforeAll(async () => {
  database = await openTestDatabase();
  rig = await connectedSession(database.db, await insertConnection(database.db, "baileys"));
  ({ socket, rec, session } = rig);
  ({ deliver, expectIgnored } = driver(rig));
});
afterAll(async () => {
  await session.stop();
  await database.close();
  await database.drop();
});

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
    expect(got.media?.size).toBeUndefined();
    const declared = await deliver(incoming({ documentMessage: { mimetype: "application/zip", fileLength: 3_000_000_000 } }));
    // WhatsApp's declared size reaches the pipeline, which refuses what is over its cap before downloading.
    expect(declared.media?.size).toBe(3_000_000_000);
    expect(await buffer(await got.media!.download())).toEqual(Buffer.from("media-bytes"));
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
    expect(await buffer(again)).toEqual(Buffer.from("media-bytes"));
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
    // Every *Alt pair is a LID <-> phone mapping the pipeline records (and merges contacts with).
    expect(rec.identities).toEqual(
      expect.arrayContaining([
        { lid: "98765432101234@lid", pn: "5511999990004" },
        { lid: "11112222333344@lid", pn: "5511999990005" },
      ]),
    );
  });

  it("a customer known only by LID stays a LID address, never a phone number made of its digits", async () => {
    const before = rec.messages.length;
    socket.lidOnly("21795436714609@lid", { conversation: "sem número" });
    await vi.waitFor(() => expect(rec.messages.length).toBe(before + 1));
    expect(rec.messages.at(-1)).toMatchObject({ chat: "21795436714609@lid", sender: { number: "21795436714609@lid" } });

    const inGroup = await deliver(
      incoming({ conversation: "lid member" }, { remoteJid: "120363041234567890@g.us", participant: "31313131313131@lid" }),
    );
    expect(inGroup.sender?.number).toBe("31313131313131@lid");

    await session.send({ to: "21795436714609@lid", isGroup: false, body: "olá" });
    expect(socket.sent.at(-1)!.jid).toBe("21795436714609@lid");
  });

  it("messages sent from the phone itself arrive as fromMe, live or appended", async () => {
    const fromPhone = await deliver(incoming({ conversation: "sent from my phone" }, { fromMe: true }), "append");
    expect(fromPhone).toMatchObject({ fromMe: true, chat: "5511999990001", body: "sent from my phone" });
    expect(fromPhone.sender).toBeUndefined();
    expect(await deliver(incoming({ conversation: "typed on the phone" }, { fromMe: true }))).toMatchObject({ fromMe: true });
  });

  it("ignores status, broadcast lists, newsletters, key distribution and protocol noise", async () => {
    await expectIgnored(incoming({ conversation: "my status" }, { remoteJid: "status@broadcast", participant: CUSTOMER }));
    await expectIgnored(incoming({ conversation: "channel post" }, { remoteJid: "120363000000000000@newsletter" }));
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
      expect(rec.updates.at(-1)).toEqual({
        wid: original.wid,
        chat: "5511999990001",
        fromMe: false,
        author: "5511999990001",
        editedBody: "fixed",
      }),
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
      expect(rec.updates.at(-1)).toEqual({
        wid: original.wid,
        chat: "5511999990001",
        fromMe: false,
        author: "5511999990001",
        revoked: true,
      }),
    );
  });

  it("a failing pipeline does not stop the next messages", async () => {
    const fail = rig.failNextMessage();
    socket.ev.emit("messages.upsert", { type: "notify", messages: [incoming({ conversation: "boom" })] });
    await fail;
    expect(await deliver(incoming({ conversation: "still flowing" }))).toMatchObject({ body: "still flowing" });
  });
});
