import type { proto } from "@whiskeysockets/baileys";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contacts, messages, tickets } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { createTestApp, openTestDatabase, type TestApp } from "../harness.js";
import { answerIqs } from "./iq-answers.js";
import { dispatch } from "./real-stanzas.js";
import {
  localWhatsApp,
  OFFLINE_DRAINED,
  OWN_DEVICE,
  OWN_PHONE,
  ownPhone,
  pairedDevice,
  simulatedCustomer,
} from "./real-whatsapp.js";

/**
 * Issue 18 item 5 with the real makeWASocket: a chat with a ticket going, stored by the customer's
 * number, that WhatsApp now addresses by LID (the pair known only to Baileys' LID store). After a
 * reconnect, the customer's first message anchors an on-demand history request to our phone
 * (Baileys' fetchMessageHistory, a peer data operation naming the LID chat), and the phone's
 * answer (an ON_DEMAND history sync notification keyed by the LID) fills the gap in that ticket.
 */
const BIA = { pn: "5511999990041", lid: "77774444555566@lid", name: "Bia" };
const minutesAgo = (n: number) => Math.floor(Date.now() / 1000) - n * 60;

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>>;
let t: TestApp;
let whatsappId: number;
let ticketId: number;
let customer: Awaited<ReturnType<typeof simulatedCustomer>>;
let phone: Awaited<ReturnType<typeof ownPhone>>;
let ws: Awaited<ReturnType<typeof server.ws>>;
let iqs: ReturnType<typeof answerIqs>;

beforeAll(async () => {
  database = await openTestDatabase();
  server = await localWhatsApp();
  whatsappId = await insertConnection(database.db, "baileys");
  // The ticket's last stored message is 30 minutes old: what came since was lost while we were down.
  const [contact] = await database.db.insert(contacts).values({ name: BIA.name, number: BIA.pn }).returning();
  const [ticket] = await database.db.insert(tickets).values({ contactId: contact.id, whatsappId, status: "open" }).returning();
  ticketId = ticket.id;
  await database.db.insert(messages).values({
    ticketId,
    whatsappId,
    contactId: contact.id,
    wid: "3AOLDBIA0001",
    body: "antes",
    createdAt: new Date(minutesAgo(30) * 1000),
  });

  customer = await simulatedCustomer(await pairedDevice(database.db, whatsappId), { jid: BIA.lid, lid: BIA.lid, name: BIA.name });
  phone = await ownPhone(database.db, whatsappId);
  await phone.knows([{ lid: BIA.lid, pn: `${BIA.pn}@s.whatsapp.net` }]);
  t = await createTestApp({ database, factories: { baileys: server.factory } });
  ws = await server.ws();
  iqs = answerIqs({ ws, sentNodes: () => server.sentNodes(), directory: new Map() });
  // WhatsApp logs the paired device in (the connection opens: backfill notes the active chats), then drains its offline queue.
  dispatch(ws, { tag: "success", attrs: { t: String(Math.floor(Date.now() / 1000)), lid: OWN_DEVICE.lid } });
  dispatch(ws, OFFLINE_DRAINED);
  await vi.waitFor(() => expect(t.sessions.isConnected(whatsappId)).toBe(true), { timeout: 10_000 });
});
afterAll(async () => {
  await iqs?.stop();
  await t?.close();
  await server?.close();
  await database?.close();
  await database?.drop();
});

const ticketBodies = async () =>
  (
    await database.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.ticketId, ticketId)))
      .orderBy(asc(messages.createdAt), asc(messages.id))
  ).map((m) => m.body);

/** The on-demand history requests our device sent the phone: each peer message decrypted once, in order. */
const requests = new Map<string, proto.Message.PeerDataOperationRequestMessage.IHistorySyncOnDemandRequest | null>();
async function historyRequests() {
  const peer = (await server.sentNodes()).filter(
    (n) => n.tag === "message" && n.attrs.to === OWN_PHONE.jid && n.attrs.category === "peer",
  );
  for (const node of peer) {
    if (requests.has(node.attrs.id)) continue;
    const operation = (await phone.decrypt(node)).protocolMessage?.peerDataOperationRequestMessage;
    requests.set(node.attrs.id, operation?.historySyncOnDemandRequest ?? null);
  }
  return [...requests].filter(([, request]) => request).map(([id, request]) => ({ id, request: request! }));
}

const customerText = (id: string, text: string, at: number): proto.IWebMessageInfo => ({
  key: { remoteJid: BIA.lid, fromMe: false, id },
  message: { conversation: text },
  messageTimestamp: at,
  pushName: BIA.name,
});

describe("gap backfill in a LID-addressed chat (real Baileys)", () => {
  it("asks the phone for the LID chat's history before the first new message, and stores only the gap in the ticket", async () => {
    const liveAt = minutesAgo(1);
    const live = await customer.message("3ALIDLIVE0001", "oi, alguém aí?", { at: liveAt });
    dispatch(ws, live);
    await vi.waitFor(async () => expect(await ticketBodies()).toEqual(["antes", "oi, alguém aí?"]), { timeout: 10_000 });

    // Baileys' fetchMessageHistory: the chat as WhatsApp names it (the LID), anchored on that message.
    const [asked] = await vi.waitFor(
      async () => {
        const found = await historyRequests();
        expect(found).toHaveLength(1);
        return found;
      },
      { timeout: 10_000 },
    );
    expect(asked.request).toMatchObject({
      chatJid: BIA.lid,
      oldestMsgId: "3ALIDLIVE0001",
      oldestMsgFromMe: false,
      onDemandMsgCount: 50,
    });
    expect(Number(asked.request.oldestMsgTimestampMs)).toBe(liveAt * 1000);

    // The phone answers by LID: one message from before the ticket's last (already had), one lost in the gap.
    const answer = await phone.historyAnswer(asked.id, BIA.lid, [
      customerText("3ALIDOLD0001", "mensagem de semanas atrás", minutesAgo(60 * 24 * 20)),
      customerText("3ALIDLOST001", "mandei o comprovante", minutesAgo(10)),
    ]);
    dispatch(ws, answer);
    await vi.waitFor(async () => expect(await ticketBodies()).toEqual(["antes", "mandei o comprovante", "oi, alguém aí?"]), {
      timeout: 10_000,
    });
    // One contact: the LID chat is the customer stored by number.
    expect(await database.db.select({ id: contacts.id }).from(contacts)).toHaveLength(1);
    expect(await historyRequests()).toHaveLength(1);
  });
});
