import type { Connection, Message } from "@zapdesk/core";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SendOutcomeUnknown } from "../src/channels/channel.js";
import { contacts, messages, outbox, tickets } from "../src/db/schema.js";
import { type CloudConnection, customerPhone, makeCloudConnection, messagesOf, startCloudApp } from "./cloud-rig.js";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection, phoneReceived } from "./conversation.js";
import { makeAdmin, type TestUser } from "./factories.js";
import { payloads } from "./graph-fake/index.js";
import { multipart } from "./multipart.js";

const { text, flowReply } = payloads;

// A real 1x1 JPEG, so type sniffing on both sides sees an image.
const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);

/** A paragraph of `n` characters (words of five letters and a space). */
const paragraph = (n: number, letter: string) => `${`${letter.repeat(5)} `.repeat(Math.ceil(n / 6))}`.slice(0, n).trimEnd();

describe("Cloud API, current: unknown outcomes, limits and types", () => {
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let cloud: CloudConnection;

  beforeAll(async () => {
    // A short send deadline (with room for a loaded machine): an answer held back 4 s is past it.
    app = await startCloudApp({ config: { graphTimeouts: { callMs: 1500, mediaMs: 10_000 } } });
    admin = await makeAdmin(app.t);
    cloud = await makeCloudConnection(app, admin);
  });
  afterAll(async () => app?.close());

  const db = () => app.t.database.db;

  async function ticketOf(number: string) {
    return eventually(async () => {
      const [row] = await db()
        .select({ id: tickets.id })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(and(eq(contacts.number, number), eq(tickets.whatsappId, cloud.connection.id)));
      expect(row).toBeDefined();
      return row.id;
    });
  }

  /** A customer who wrote, with an open ticket assigned to the admin. */
  async function openConversation() {
    const from = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(text({ from, body: "Olá" }), "Maria"));
    const ticketId = await ticketOf(from);
    const res = await app.t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticketId}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { from, ticketId };
  }

  const rowsOf = (ticketId: number) =>
    db()
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)))
      .orderBy(asc(messages.id));

  const connectionStatus = async () =>
    (
      (
        await app.t.app.inject({ method: "GET", url: `/api/whatsapp/${cloud.connection.id}`, headers: admin.auth })
      ).json() as Connection
    ).status;

  it("a send whose answer timed out is not resent: Meta's statuses name the row, which adopts the wamid; the connection stays up", async () => {
    const { from, ticketId } = await openConversation();
    // The outbox waits: the send is made by hand, to see the channel's side of the contract alone.
    await app.t.outbox.stop();
    try {
      const res = await app.t.app.inject({
        method: "POST",
        url: `/api/messages/${ticketId}`,
        headers: admin.auth,
        payload: { body: "Seu pedido saiu para entrega" },
      });
      expect(res.statusCode, res.body).toBe(201);
      const [row] = await rowsOf(ticketId);
      expect(row.wid).toMatch(/^3EB0/);

      app.fake.delayNext({ on: "messages", ms: 4000 });
      const live = app.t.sessions.get(cloud.connection.id);
      const outcome = await live.send({ id: row.wid ?? undefined, to: from, isGroup: false, body: row.body }).catch((e) => e);
      expect(outcome).toBeInstanceOf(SendOutcomeUnknown);
      expect(app.t.sessions.isConnected(cloud.connection.id)).toBe(true);
      expect(await connectionStatus()).toBe("CONNECTED");

      // Meta had it: its statuses come later, with our id echoed as biz_opaque_callback_data.
      const taken = app.fake.accepted(cloud.phoneNumberId).filter((m) => m.to === from);
      expect(taken).toEqual([expect.objectContaining({ bizOpaqueCallbackData: row.wid })]);
      await cloud.meta.deliver(cloud.meta.statusesOf(taken, "sent"));
      await cloud.meta.deliver(cloud.meta.statusesOf(taken, "delivered"));
      const settled = await eventually(async () => {
        const [current] = await db().select().from(messages).where(eq(messages.id, row.id));
        expect(current).toMatchObject({ wid: taken[0].id, ack: 2 });
        return current;
      });
      expect(settled.errorCode).toBeNull();
      // Nothing of it is left to send: the outbox, running again, sends no second copy.
      expect(await db().select().from(outbox).where(eq(outbox.messageId, row.id))).toEqual([]);
    } finally {
      app.t.outbox.start();
    }
    await app.t.outbox.drain();
    expect(app.fake.accepted(cloud.phoneNumberId).filter((m) => m.to === from)).toHaveLength(1);
  });

  it("through the outbox: a timed-out send is kept unconfirmed and never resent, and Meta's statuses settle it", async () => {
    const { from, ticketId } = await openConversation();
    app.fake.delayNext({ on: "messages", ms: 4000 });
    const res = await app.t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: admin.auth,
      payload: { body: "Chegou o boleto" },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await rowsOf(ticketId);
    const unconfirmed = await eventually(async () => {
      const [current] = await db().select().from(messages).where(eq(messages.id, row.id));
      expect(current).toMatchObject({ ack: 0, errorCode: "OUTCOME_UNKNOWN" });
      return current;
    });
    expect(unconfirmed.wid).toBe(row.wid);
    expect(await db().select().from(outbox).where(eq(outbox.messageId, row.id))).toEqual([]);
    expect(await connectionStatus()).toBe("CONNECTED");
    // Several outbox passes later, Meta still holds one copy.
    await app.t.outbox.drain();
    await app.t.outbox.drain();
    const taken = app.fake.accepted(cloud.phoneNumberId).filter((m) => m.to === from);
    expect(taken).toEqual([expect.objectContaining({ bizOpaqueCallbackData: row.wid })]);

    await cloud.meta.deliver(cloud.meta.statusesOf(taken, "delivered"));
    await eventually(async () => {
      const [current] = await db().select().from(messages).where(eq(messages.id, row.id));
      expect(current).toMatchObject({ wid: taken[0].id, ack: 2, errorCode: null });
    });
  });

  it("a text over 4,096 characters goes as several messages, in order, each its own row and wamid", async () => {
    const { from, ticketId } = await openConversation();
    const parts = [paragraph(4000, "a"), paragraph(3000, "b"), paragraph(2500, "c")];
    const body = parts.join("\n\n");
    const res = await app.t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: admin.auth,
      payload: { body },
    });
    expect(res.statusCode, res.body).toBe(201);
    // The answer is the first part; each part is its own row, sent in order.
    expect((res.json() as Message).body).toBe(parts[0]);
    const rows = await eventually(async () => {
      const stored = await rowsOf(ticketId);
      expect(stored.map((r) => r.wid)).toEqual([
        expect.stringMatching(/^wamid\./),
        expect.stringMatching(/^wamid\./),
        expect.stringMatching(/^wamid\./),
      ]);
      return stored;
    });
    expect(new Set(rows.map((r) => r.wid)).size).toBe(3);
    const sent = app.fake.sentMessages(cloud.phoneNumberId).filter((m) => m.to === from && m.type === "text");
    expect(sent.map((m) => (m.text as { body: string }).body)).toEqual(parts);
  });

  it("a caption over 1,024 characters goes as the image with a caption, then the rest as text", async () => {
    const { from, ticketId } = await openConversation();
    const caption = paragraph(1000, "d");
    const rest = paragraph(600, "e");
    const form = multipart([
      { name: "body", value: `${caption}\n${rest}` },
      { name: "medias", value: JPEG, filename: "foto.jpg", type: "image/jpeg" },
    ]);
    const res = await app.t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: { ...admin.auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    await eventually(async () => expect((await rowsOf(ticketId)).every((r) => r.wid?.startsWith("wamid."))).toBe(true));
    const sent = app.fake.sentMessages(cloud.phoneNumberId).filter((m) => m.to === from);
    expect(sent.map((m) => m.type)).toEqual(["image", "text"]);
    expect((sent[0].image as { caption: string }).caption).toBe(caption);
    expect((sent[1].text as { body: string }).body).toBe(rest);
    const rows = await rowsOf(ticketId);
    expect(rows.map((r) => [r.mediaType, r.body])).toEqual([
      ["image", caption],
      ["chat", rest],
    ]);
  });

  it("a QR-style connection sends a long text whole", async () => {
    const sim = await makeSimulatorConnection(app.t, admin);
    const from = customerNumber();
    await customerWrites(app.t, admin, sim.id, { from, body: "oi" });
    const ticketId = await eventually(async () => {
      const [row] = await db()
        .select({ id: tickets.id })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(and(eq(contacts.number, from), eq(tickets.whatsappId, sim.id)));
      expect(row).toBeDefined();
      return row.id;
    });
    await app.t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticketId}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    const body = paragraph(9000, "f");
    const res = await app.t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: admin.auth,
      payload: { body },
    });
    expect(res.statusCode, res.body).toBe(201);
    await eventually(async () => expect((await phoneReceived(app.t, admin, sim.id, from)).map((m) => m.body)).toEqual([body]));
  });

  it("a WhatsApp Flow's answer is shown with its fields", async () => {
    const { from, ticketId } = await openConversation();
    await cloud.meta.deliver(cloud.meta.message(flowReply({ from, response: { nome: "Maria", horario: "manhã" } }), "Maria"));
    await eventually(async () =>
      expect((await messagesOf(app.t, admin, ticketId)).at(-1)).toMatchObject({
        fromMe: false,
        body: "nome: Maria\nhorario: manhã",
      }),
    );
  });

  it("the read receipt names the newest message, even when an older one arrived last", async () => {
    const from = customerPhone();
    const now = Date.now();
    const newer = text({ from, body: "segunda", at: new Date(now - 1000) });
    const older = text({ from, body: "primeira", at: new Date(now - 60_000) });
    await cloud.meta.deliver(cloud.meta.message(newer, "Rui"));
    const ticketId = await ticketOf(from);
    await cloud.meta.deliver(cloud.meta.message(older, "Rui"));
    await eventually(async () => expect(await messagesOf(app.t, admin, ticketId)).toHaveLength(2));
    const opened = await app.t.app.inject({ method: "GET", url: `/api/tickets/${ticketId}`, headers: admin.auth });
    expect(opened.statusCode).toBe(200);
    await eventually(() =>
      expect(
        app.fake
          .sentMessages(cloud.phoneNumberId)
          .filter((m) => m.status === "read" && [newer.id, older.id].includes(m.message_id as string)),
      ).toEqual([{ messaging_product: "whatsapp", status: "read", message_id: newer.id }]),
    );
  });

  it("a customer's call is a line in the ticket, then says it was missed", async () => {
    const from = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(text({ from, body: "vou ligar" }), "Lia"));
    const ticketId = await ticketOf(from);
    const call = payloads.newCallId();
    const to = "15550100";
    await cloud.meta.deliver(cloud.meta.calls([{ id: call, from, to, event: "connect" }]));
    const line = await eventually(async () => {
      const found = (await messagesOf(app.t, admin, ticketId)).find((m) => m.mediaType === "call");
      expect(found).toMatchObject({ body: "Chamada de voz recebida", fromMe: false });
      return found as Message;
    });
    await cloud.meta.deliver(cloud.meta.calls([{ id: call, from, to, event: "terminate", status: "FAILED" }]));
    await eventually(async () => {
      const calls = (await messagesOf(app.t, admin, ticketId)).filter((m) => m.mediaType === "call");
      expect(calls).toEqual([expect.objectContaining({ id: line.id, body: "Chamada de voz perdida" })]);
    });
    const [ticket] = await db().select({ lastMessage: tickets.lastMessage }).from(tickets).where(eq(tickets.id, ticketId));
    expect(ticket.lastMessage).toBe("Chamada de voz perdida");
    // A call whose ringing never reached us is still a line, missed.
    await cloud.meta.deliver(cloud.meta.calls([{ from, to, event: "terminate", status: "FAILED" }]));
    await eventually(async () =>
      expect((await messagesOf(app.t, admin, ticketId)).filter((m) => m.mediaType === "call").map((m) => m.body)).toEqual([
        "Chamada de voz perdida",
        "Chamada de voz perdida",
      ]),
    );
  });

  it("an account-level error is logged and shown to admins as the connection's last error", async () => {
    const delivered = await cloud.meta.deliver(
      cloud.meta.accountErrors([{ code: 131031, title: "Business Account locked", details: "The account has been locked" }]),
    );
    expect(delivered[0].status).toBe(200);
    await eventually(async () => {
      const res = await app.t.app.inject({ method: "GET", url: `/api/whatsapp/${cloud.connection.id}`, headers: admin.auth });
      expect((res.json() as Connection).health).toMatchObject({
        lastError: "Meta 131031: Business Account locked: The account has been locked",
        lastErrorAt: expect.any(String),
      });
    });
    expect(await connectionStatus()).toBe("CONNECTED");
  });
});
