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

beforeAll(async () => {
  database = await openTestDatabase();
  rig = await connectedSession(database.db, await insertConnection(database.db, "baileys"));
  ({ socket, rec, session } = rig);
  ({ deliver } = driver(rig));
});
afterAll(async () => {
  await session.stop();
  await database.close();
  await database.drop();
});

describe("Baileys updates, calls and identities", () => {
  it("an edit in a group names the member who sent it, so the pipeline can check it against the author", async () => {
    const group = "120363041234567890@g.us";
    socket.ev.emit("messages.upsert", {
      type: "notify",
      messages: [
        incoming(
          {
            protocolMessage: {
              key: { remoteJid: group, id: "3AGROUPMSG", participant: "5511999990003@s.whatsapp.net" },
              type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
              editedMessage: { conversation: "pay 900" },
            },
          },
          { remoteJid: group, participant: "66667777888899@lid", participantAlt: "5511999990009@s.whatsapp.net" },
        ),
      ],
    });
    await vi.waitFor(() => expect(rec.updates.at(-1)).toMatchObject({ wid: "3AGROUPMSG", editedBody: "pay 900" }));
    expect(rec.updates.at(-1)!.author).toBe("5511999990009");
  });

  it("reactions update their target; an empty one withdraws it", async () => {
    const target = await deliver(incoming({ conversation: "thanks!" }));
    socket.receive(incoming({ reactionMessage: { key: { remoteJid: CUSTOMER, id: target.wid, fromMe: false }, text: "👍" } }));
    await vi.waitFor(() =>
      expect(rec.updates.at(-1)).toEqual({
        wid: target.wid,
        chat: "5511999990001",
        reaction: { by: "5511999990001", name: "Ana", emoji: "👍", fromMe: false },
      }),
    );
    socket.receive(incoming({ reactionMessage: { key: { id: target.wid }, text: "" } }, { fromMe: true }));
    await vi.waitFor(() => expect(rec.updates.at(-1)!.reaction).toEqual({ by: "me", name: "Ana", emoji: "", fromMe: true }));
  });

  it("acks from messages.update and message-receipt.update", async () => {
    const key = { remoteJid: CUSTOMER, fromMe: true, id: "3EB0ACK" };
    const Status = proto.WebMessageInfo.Status;
    socket.ev.emit("messages.update", [
      { key, update: { status: Status.SERVER_ACK } },
      { key, update: { status: Status.DELIVERY_ACK } },
      { key, update: { status: Status.READ } },
      { key, update: { status: Status.PLAYED } },
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

  it("a server NACK is a refused message (ack -1) with a readable reason", async () => {
    socket.nack({ remoteJid: CUSTOMER, id: "3EB0REFUSED" }, "463");
    socket.nack({ remoteJid: CUSTOMER, id: "3EB0SMAX" }, "479");
    await vi.waitFor(() => expect(rec.updates.filter((u) => u.ack === -1)).toHaveLength(2));
    const [restricted, smax] = rec.updates.filter((u) => u.ack === -1);
    expect(restricted).toMatchObject({ wid: "3EB0REFUSED", chat: "5511999990001", fromMe: true, error: { code: "463" } });
    expect(restricted.error!.title).toMatch(/may not start new chats/);
    expect(smax).toMatchObject({ wid: "3EB0SMAX", error: { code: "479" } });
    expect(smax.error!.title).toMatch(/rejected/);
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
    expect(rec.identities).toContainEqual({ lid: "44445555666677@lid", pn: "5511999990001" });

    // Without caller_pn the caller stays a LID address (never its digits as a number).
    socket.ev.emit("call", [{ ...offer, id: "CALL-3", from: "88889999000011:4@lid", callerPn: undefined }]);
    await vi.waitFor(() => expect(rec.calls).toHaveLength(2));
    expect(rec.calls[1].from).toBe("88889999000011@lid");
    await session.rejectCall(rec.calls[1]);
    expect(socket.rejected.at(-1)).toEqual({ callId: "CALL-3", from: "88889999000011:4@lid" });
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
    // LID contacts with their number, history mappings and lid-mapping.update all feed the LID table.
    socket.ev.emit("messaging-history.set", {
      chats: [],
      contacts: [],
      messages: [],
      lidPnMappings: [{ lid: "24242424242424@lid", pn: "5511999990024@s.whatsapp.net" }],
    });
    socket.ev.emit("lid-mapping.update", { lid: "25252525252525@lid", pn: "5511999990025@s.whatsapp.net" });
    await vi.waitFor(() =>
      expect(rec.identities).toEqual(
        expect.arrayContaining([
          { lid: "77778888999900@lid", pn: "5511999990007" },
          { lid: "24242424242424@lid", pn: "5511999990024" },
          { lid: "25252525252525@lid", pn: "5511999990025" },
        ]),
      ),
    );
  });
});
