import { proto } from "@whiskeysockets/baileys";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, messages, tickets } from "../../src/db/schema.js";
import { eventually } from "../conversation.js";
import {
  agentSends,
  type BaileysApp,
  getTicket,
  logSettled,
  makeBaileysConnection,
  messagesOf,
  startBaileysApp,
  ticketOf,
  updateTicket,
} from "./app-rig.js";
import type { FakeSocket } from "./fake-socket.js";
import { incoming } from "./inbound-helpers.js";

/**
 * Tickets against a Baileys that behaves as the library does by default: every message we send
 * comes back as an "append" upsert (emitOwnEvents), and the phone's own messages arrive as fromMe.
 */
let app: BaileysApp;
let socket: FakeSocket;
let whatsappId: number;

beforeAll(async () => {
  app = await startBaileysApp({ echo: true });
  const made = await makeBaileysConnection(app, { farewellMessage: "Obrigado pelo contato!" });
  socket = made.socket;
  whatsappId = made.connection.id;
});
afterAll(async () => app?.close());

let customers = 0;
const newCustomer = () => `55119888${String(process.pid % 1000).padStart(3, "0")}${String(++customers).padStart(2, "0")}`;
const jidOf = (number: string) => `${number}@s.whatsapp.net`;

/** A customer writes; the agent takes the ticket. */
async function openTicket(number: string) {
  socket.receive(incoming({ conversation: "preciso de ajuda" }, { remoteJid: jidOf(number) }));
  const id = await ticketOf(app.t, whatsappId, number);
  await updateTicket(app.t, app.admin, id, { status: "open", userId: app.admin.id });
  return id;
}

/** What we sent with this text, once its echo has been through the pipeline. */
async function echoOf(text: string) {
  const sent = await eventually(() => {
    const found = socket.sent.find((s) => "text" in s.content && s.content.text === text);
    expect(found).toBeDefined();
    return found!;
  });
  await logSettled(app.t, whatsappId, `msg:${sent.message.key.id}`);
  return sent;
}

describe("our own messages never reopen or reassign a ticket", () => {
  it("resolving with a farewell: the echo of the farewell leaves the ticket closed and assigned", async () => {
    const number = newCustomer();
    const id = await openTicket(number);
    const sentBefore = socket.sent.filter((s) => s.jid === jidOf(number)).length;
    await updateTicket(app.t, app.admin, id, { status: "closed" });
    await eventually(() => expect(socket.sent.filter((s) => s.jid === jidOf(number)).length).toBe(sentBefore + 1));
    const farewell = await echoOf("Obrigado pelo contato!");
    expect(farewell.jid).toBe(jidOf(number));

    expect(await getTicket(app.t, app.admin, id)).toMatchObject({ status: "closed", userId: app.admin.id });
    const bodies = (await messagesOf(app.t, app.admin, id)).map((m) => m.body);
    expect(bodies.filter((b) => b === "Obrigado pelo contato!")).toHaveLength(1);
  });

  it("the Protocolo notice: its echo leaves the ticket closed and assigned", async () => {
    const number = newCustomer();
    const id = await openTicket(number);
    const res = await app.t.app.inject({ method: "POST", url: `/api/tickets/${id}/protocol`, headers: app.admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    const notice = await eventually(() => {
      const found = socket.sent.find(
        (s) => s.jid === jidOf(number) && "text" in s.content && /protocolo/.test(String(s.content.text)),
      );
      expect(found).toBeDefined();
      return found!;
    });
    await logSettled(app.t, whatsappId, `msg:${notice.message.key.id}`);
    expect(await getTicket(app.t, app.admin, id)).toMatchObject({ status: "closed", userId: app.admin.id });
  });

  it("a message typed on the phone joins the ticket without reopening or reassigning it", async () => {
    const number = newCustomer();
    const id = await openTicket(number);
    await updateTicket(app.t, app.admin, id, { status: "closed" });
    await eventually(() => expect(socket.sent.some((s) => s.jid === jidOf(number))).toBe(true));

    const typed = incoming({ conversation: "respondi pelo celular" }, { remoteJid: jidOf(number), fromMe: true });
    socket.receive(typed, "append");
    await logSettled(app.t, whatsappId, `msg:${typed.key.id}`);
    expect(await getTicket(app.t, app.admin, id)).toMatchObject({ status: "closed", userId: app.admin.id });
    expect((await messagesOf(app.t, app.admin, id)).map((m) => m.body)).toContain("respondi pelo celular");
  });
});

describe("edits, revokes and reactions in the history", () => {
  it("another group member cannot rewrite someone else's message; its author can", async () => {
    const group = "120363099999999999@g.us";
    const original = incoming({ conversation: "pay 100" }, { remoteJid: group, participant: "5511977770001@s.whatsapp.net" });
    socket.receive(original);
    await logSettled(app.t, whatsappId, `msg:${original.key.id}`);
    const edit = (participant: string, text: string) =>
      incoming(
        {
          protocolMessage: {
            key: { remoteJid: group, id: original.key.id, participant: "5511977770001@s.whatsapp.net" },
            type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
            editedMessage: { conversation: text },
          },
        },
        { remoteJid: group, participant },
      );
    const forged = edit("5511977770002@s.whatsapp.net", "pay 900");
    socket.receive(forged);
    await logSettled(app.t, whatsappId, `msg:${forged.key.id}`);
    const stored = () =>
      app.t.database.db
        .select({ body: messages.body, isEdited: messages.isEdited })
        .from(messages)
        .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, original.key.id!)));
    expect(await stored()).toEqual([{ body: "pay 100", isEdited: false }]);

    const real = edit("5511977770001@s.whatsapp.net", "pay 150");
    socket.receive(real);
    await logSettled(app.t, whatsappId, `msg:${real.key.id}`);
    expect(await stored()).toEqual([{ body: "pay 150", isEdited: true }]);
  });

  it("a customer's reaction is shown on the message it reacts to", async () => {
    const number = newCustomer();
    const id = await openTicket(number);
    await agentSends(app.t, app.admin, id, "seu pedido saiu");
    const ours = await echoOf("seu pedido saiu");
    const reaction = incoming(
      { reactionMessage: { key: { remoteJid: jidOf(number), id: ours.message.key.id, fromMe: false }, text: "❤️" } },
      { remoteJid: jidOf(number) },
      { pushName: "Bia" },
    );
    socket.receive(reaction);
    await logSettled(app.t, whatsappId, `msg:${reaction.key.id}`);
    const target = (await messagesOf(app.t, app.admin, id)).find((m) => m.body === "seu pedido saiu");
    expect(target?.reactions).toEqual([{ emoji: "❤️", fromMe: false, name: "Bia" }]);
  });
});

describe("customers known only by LID", () => {
  it("are answered at their LID, and merged with their number once WhatsApp reveals it", async () => {
    const lid = "21795436714609@lid";
    const first = socket.lidOnly(lid, { conversation: "oi, sou nova aqui" });
    await logSettled(app.t, whatsappId, `msg:${first.key.id}`);
    const id = await ticketOf(app.t, whatsappId, lid);
    await updateTicket(app.t, app.admin, id, { status: "open", userId: app.admin.id });
    await agentSends(app.t, app.admin, id, "bem-vinda!");
    expect((await echoOf("bem-vinda!")).jid).toBe(lid);
    expect(socket.sent.some((s) => s.jid === "21795436714609@s.whatsapp.net")).toBe(false);

    const number = newCustomer();
    const revealed = incoming({ conversation: "meu número apareceu" }, { remoteJid: lid, remoteJidAlt: jidOf(number) });
    socket.receive(revealed);
    await logSettled(app.t, whatsappId, `msg:${revealed.key.id}`);
    const rows = await app.t.database.db
      .select({ number: contacts.number, lid: contacts.lid, ticketId: tickets.id })
      .from(contacts)
      .innerJoin(tickets, eq(tickets.contactId, contacts.id))
      .where(eq(tickets.whatsappId, whatsappId));
    const person = rows.filter((r) => r.lid === lid || r.number === lid || r.number === number);
    expect(person).toEqual([{ number, lid, ticketId: id }]);
  });
});
