import type { Connection, Message } from "@zapdesk/core";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, inboundEvents, messages, tickets } from "../src/db/schema.js";
import { type CloudConnection, customerPhone, makeCloudConnection, messagesOf, startCloudApp } from "./cloud-rig.js";
import { eventually } from "./conversation.js";
import { makeAdmin, type TestUser } from "./factories.js";
import { payloads } from "./graph-fake/index.js";

const { text, reaction } = payloads;

describe("Cloud API journey: webhook in, Graph out", () => {
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let cloud: CloudConnection;

  beforeAll(async () => {
    app = await startCloudApp();
    admin = await makeAdmin(app.t);
    cloud = await makeCloudConnection(app, admin);
  });
  afterAll(async () => app?.close());

  const db = () => app.t.database.db;

  async function ticketOf(number: string) {
    return eventually(async () => {
      const [row] = await db()
        .select({ ticket: tickets, contact: contacts })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(and(eq(contacts.number, number), eq(tickets.whatsappId, cloud.connection.id)));
      expect(row).toBeDefined();
      return row;
    });
  }

  async function accept(ticketId: number) {
    const res = await app.t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticketId}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function reply(ticketId: number, payload: Record<string, unknown>) {
    return app.t.app.inject({ method: "POST", url: `/api/messages/${ticketId}`, headers: admin.auth, payload });
  }

  /** The stored row of a message once the outbox has sent it (its wid is Meta's wamid). */
  const sentRow = (id: number) =>
    eventually(async () => {
      const [row] = await db().select().from(messages).where(eq(messages.id, id));
      expect(row.wid).toMatch(/^wamid\./);
      return row;
    });

  /** A customer who wrote, with an open ticket assigned to the admin. */
  async function openConversation(name = "Maria") {
    const from = customerPhone();
    const first = text({ from, body: `Olá, sou ${name}` });
    const [delivery] = await cloud.meta.deliver(cloud.meta.message(first, name));
    expect(delivery).toEqual({ status: 200, body: "EVENT_RECEIVED" });
    const { ticket, contact } = await ticketOf(from);
    await accept(ticket.id);
    return { from, ticketId: ticket.id, contact, firstWid: first.id };
  }

  it("customer writes → ticket; agent replies; statuses move the ack forward only; window closes; template sent", async () => {
    const { from, ticketId, contact, firstWid } = await openConversation("Maria");
    expect(contact.name).toBe("Maria");
    const [inbound] = await messagesOf(app.t, admin, ticketId);
    expect(inbound).toMatchObject({ body: "Olá, sou Maria", fromMe: false, mediaType: "chat" });

    // Opening the ticket marks the customer's message read on WhatsApp.
    const opened = await app.t.app.inject({ method: "GET", url: `/api/tickets/${ticketId}`, headers: admin.auth });
    expect(opened.statusCode).toBe(200);
    await eventually(() =>
      expect(app.fake.sentMessages(cloud.phoneNumberId)).toContainEqual({
        messaging_product: "whatsapp",
        status: "read",
        message_id: firstWid,
      }),
    );

    const res = await reply(ticketId, { body: "Oi Maria, como posso ajudar?", quotedMsg: { id: inbound.id } });
    expect(res.statusCode, res.body).toBe(201);
    const sent = await sentRow((res.json() as Message).id);
    const graphCall = app.fake.requests.find(
      (r) => r.path === `/${cloud.phoneNumberId}/messages` && (r.body as { type?: string }).type === "text",
    );
    expect(graphCall?.authorization).toBe(`Bearer ${cloud.accessToken}`);
    expect(graphCall?.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: from,
      context: { message_id: firstWid },
      // The row's own id, echoed by Meta in the message's statuses (a lost answer is settled by them).
      biz_opaque_callback_data: expect.stringMatching(/^3EB0/),
      type: "text",
      text: { body: "Oi Maria, como posso ajudar?", preview_url: false },
    });

    // Meta's statuses arrive out of order: read first, then the older ones; the ack never goes back.
    const wid = sent.wid as string;
    const status = (s: "sent" | "delivered" | "read") => cloud.meta.statuses([{ id: wid, status: s, recipientId: from }]);
    await cloud.meta.deliverAll([status("sent"), status("delivered"), status("read")], "reverse");
    const ackOf = async () => (await db().select().from(messages).where(eq(messages.id, sent.id)))[0].ack;
    await eventually(async () => expect(await ackOf()).toBe(3));
    await app.t.cloudWebhooks.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await ackOf()).toBe(3);

    // 25 hours later the window is closed: free-form text is refused, an approved template is not.
    await db()
      .update(tickets)
      .set({ lastInboundAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(tickets.id, ticketId));
    const refused = await reply(ticketId, { body: "Ainda aí?" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: "ERR_WAPP_WINDOW_CLOSED" });

    app.fake.setTemplates(cloud.businessAccountId, [
      {
        id: "1",
        name: "pedido_pronto",
        language: "pt_BR",
        status: "APPROVED",
        category: "UTILITY",
        components: [
          { type: "HEADER", format: "TEXT", text: "Pedido {{1}}" },
          { type: "BODY", text: "Olá {{1}}, seu pedido {{2}} está pronto." },
          { type: "FOOTER", text: "Loja Exemplo" },
        ],
      },
      { id: "2", name: "promo", language: "pt_BR", status: "PENDING", category: "MARKETING", components: [] },
    ]);
    const synced = await app.t.app.inject({
      method: "POST",
      url: `/api/whatsapp/${cloud.connection.id}/templates/sync`,
      headers: admin.auth,
    });
    expect(synced.statusCode, synced.body).toBe(200);
    expect((synced.json() as { templates: { name: string }[] }).templates.map((x) => x.name)).toEqual(["pedido_pronto"]);

    const templated = await app.t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}/template`,
      headers: admin.auth,
      payload: { name: "pedido_pronto", language: "pt_BR", bodyParams: ["Maria", "#42"], headerParams: ["#42"] },
    });
    expect(templated.statusCode, templated.body).toBe(201);
    expect((templated.json() as Message).body).toBe("*Pedido #42*\n\nOlá Maria, seu pedido #42 está pronto.\n\nLoja Exemplo");
    await sentRow((templated.json() as Message).id);
    expect(app.fake.sentMessages(cloud.phoneNumberId).at(-1)).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: from,
      biz_opaque_callback_data: expect.stringMatching(/^3EB0/),
      type: "template",
      template: {
        name: "pedido_pronto",
        language: { policy: "deterministic", code: "pt_BR" },
        components: [
          { type: "header", parameters: [{ type: "text", text: "#42" }] },
          {
            type: "body",
            parameters: [
              { type: "text", text: "Maria" },
              { type: "text", text: "#42" },
            ],
          },
        ],
      },
    });
  });

  it("a forged or missing signature is refused with 401 and nothing is stored", async () => {
    const from = customerPhone();
    const payload = cloud.meta.message(text({ from, body: "forged" }));
    for (const signature of ["forged", "missing", "sha256=00"] as const) {
      const [res] = await cloud.meta.deliver(payload, { signature });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toMatchObject({ error: "ERR_WEBHOOK_SIGNATURE" });
    }
    const events = await db().select().from(inboundEvents).where(eq(inboundEvents.whatsappId, cloud.connection.id));
    expect(events.filter((e) => JSON.stringify(e.payload).includes(from))).toEqual([]);
    expect(await db().select().from(contacts).where(eq(contacts.number, from))).toEqual([]);
  });

  it("the same webhook delivered three times, and in parallel, stores one message", async () => {
    const from = customerPhone();
    const payload = cloud.meta.message(text({ from, body: "só uma vez" }));
    const deliveries = [
      ...(await cloud.meta.deliver(payload, { times: 3 })),
      ...(await cloud.meta.deliverConcurrently([payload, payload])),
    ];
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200, 200]);
    const { ticket } = await ticketOf(from);
    await app.t.cloudWebhooks.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stored = await messagesOf(app.t, admin, ticket.id);
    expect(stored.filter((m) => m.body === "só uma vez")).toHaveLength(1);
  });

  it("the same message in two different deliveries (Meta's retry with a new envelope) is stored once", async () => {
    const from = customerPhone();
    const message = text({ from, body: "retry" });
    await cloud.meta.deliver(cloud.meta.message(message, "A"));
    await cloud.meta.deliver(cloud.meta.message(message, "A "));
    const { ticket } = await ticketOf(from);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await messagesOf(app.t, admin, ticket.id)).filter((m) => m.body === "retry")).toHaveLength(1);
  });

  it("a failed status marks the message failed with Meta's code and title; a reaction lands on the target", async () => {
    const { from, ticketId } = await openConversation("Rui");
    const res = await reply(ticketId, { body: "Seu boleto" });
    const sent = await sentRow((res.json() as Message).id);
    await cloud.meta.deliver(
      cloud.meta.statuses([
        {
          id: sent.wid as string,
          status: "failed",
          recipientId: from,
          errors: [{ code: 131026, title: "Message undeliverable", details: "Receiver is incapable of receiving this message" }],
        },
      ]),
    );
    await eventually(async () => {
      const [row] = await messagesOf(app.t, admin, ticketId).then((list) => list.filter((m) => m.id === sent.id));
      expect(row).toMatchObject({ ack: -1, error: { code: "131026" } });
      expect(row.error?.title).toContain("Message undeliverable");
    });

    const other = await reply(ticketId, { body: "Obrigado!" });
    const thanks = await sentRow((other.json() as Message).id);
    await cloud.meta.deliver(cloud.meta.message(reaction({ from, messageId: thanks.wid as string, emoji: "👍" }), "Rui"));
    await eventually(async () => {
      const list = await messagesOf(app.t, admin, ticketId);
      expect(list.find((m) => m.id === thanks.id)?.reactions).toEqual([{ emoji: "👍", fromMe: false, name: "Rui" }]);
    });
  });

  it("refusals: 131047 and 131026 fail the message with the reason; 130429 is retried and goes", async () => {
    const { ticketId } = await openConversation("Ana");
    for (const code of [131047, 131026] as const) {
      app.fake.failNext({ code });
      const res = await reply(ticketId, { body: `refused ${code}` });
      const id = (res.json() as Message).id;
      await eventually(async () => {
        const row = (await messagesOf(app.t, admin, ticketId)).find((m) => m.id === id);
        expect(row).toMatchObject({ ack: -1, error: { code: String(code) } });
        expect(row?.error?.title).toMatch(code === 131047 ? /Re-engagement message/ : /Message Undeliverable/);
      });
    }
    app.fake.failNext({ code: 130429 });
    const res = await reply(ticketId, { body: "rate limited once" });
    const id = (res.json() as Message).id;
    const row = await eventually(async () => {
      const [current] = await db().select().from(messages).where(eq(messages.id, id));
      expect(current.wid).toMatch(/^wamid\./);
      return current;
    }, 15_000);
    expect(row.ack).toBe(0);
    expect(row.errorCode).toBeNull();
    const attempts = app.fake.requests.filter(
      (r) => (r.body as { text?: { body?: string } })?.text?.body === "rate limited once",
    );
    expect(attempts.map((r) => r.status)).toEqual([400, 200]);
  });

  it("stores a customer's messages in the order their deliveries came, when the first takes longer to process", async () => {
    // Each delivery is answered, then processed (webhooks.routes.ts). The first one here also carries
    // a change for another app's number, one more lookup before its message: it is still stored first.
    const from = customerPhone();
    const at = new Date();
    const first = cloud.meta.message(text({ from, body: "primeira", at }), "Zé");
    const [change] = first.entry[0].changes;
    const elsewhere = {
      ...change,
      value: { ...change.value, metadata: { display_phone_number: "1", phone_number_id: "990001" } },
    };
    first.entry[0].changes.unshift(elsewhere);
    const second = cloud.meta.message(text({ from, body: "segunda", at }), "Zé");
    const events = [];
    for (const payload of [first, second]) {
      const id = await app.t.cloudWebhooks.record(cloud.connection.id, Buffer.from(JSON.stringify(payload)), payload);
      events.push({ id: id as number, whatsappId: cloud.connection.id, payload });
    }
    await Promise.all(events.map((event) => app.t.cloudWebhooks.process(event)));
    const { ticket } = await ticketOf(from);
    expect((await messagesOf(app.t, admin, ticket.id)).map((m) => m.body)).toEqual(["primeira", "segunda"]);
  });

  it("unsupported and interactive replies are stored; a crash between store and processing is swept up", async () => {
    const from = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(payloads.unsupported({ from }), "Zé"));
    await cloud.meta.deliver(
      cloud.meta.message(payloads.listReply({ from, replyId: "opt-2", title: "Segunda via", description: "Boleto" }), "Zé"),
    );
    const { ticket } = await ticketOf(from);
    await eventually(async () => {
      const list = await messagesOf(app.t, admin, ticket.id);
      expect(list.map((m) => [m.mediaType, m.body])).toEqual([
        ["unsupported", "unsupported"],
        ["chat", "Segunda via\nBoleto"],
      ]);
    });

    // A delivery stored by a process that died before processing it: the sweeper of any process takes it.
    const lost = cloud.meta.message(text({ from, body: "guardado antes da queda" }), "Zé");
    const eventId = await app.t.cloudWebhooks.record(cloud.connection.id, Buffer.from(JSON.stringify(lost)), lost);
    await db()
      .update(inboundEvents)
      .set({ receivedAt: sql`now() - interval '1 minute'` })
      .where(eq(inboundEvents.id, eventId as number));
    // A sweep now; the app's own sweep timer may claim it first (the same sweeper, another tick), in
    // which case this one finds nothing to take and the timer's is still storing it (CI saw that once).
    await app.t.cloudWebhooks.runOnce();
    await eventually(async () => {
      const list = await messagesOf(app.t, admin, ticket.id);
      expect(list.at(-1)?.body).toBe("guardado antes da queda");
      const [event] = await db()
        .select()
        .from(inboundEvents)
        .where(eq(inboundEvents.id, eventId as number));
      expect(event.status).toBe("done");
    });
  });

  it("delete for everyone, which the Cloud API cannot do, is refused on the server and changes nothing", async () => {
    const { ticketId } = await openConversation("Diana");
    const sent = await reply(ticketId, { body: "cannot be taken back" });
    expect(sent.statusCode, sent.body).toBe(201);
    const row = await sentRow((sent.json() as Message).id);
    const res = await app.t.app.inject({ method: "DELETE", url: `/api/messages/${row.id}`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toBe("ERR_WAPP_NOT_SUPPORTED");
    const [after] = await db().select().from(messages).where(eq(messages.id, row.id));
    expect(after.isDeleted).toBe(false);
  });

  it("a token Meta no longer accepts (190) shows TOKEN_INVALID and keeps the message queued", async () => {
    const own = await makeCloudConnection(app, admin);
    const from = customerPhone();
    await own.meta.deliver(own.meta.message(text({ from, body: "oi" })));
    const [row] = await eventually(async () => {
      const found = await db()
        .select({ ticket: tickets })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(and(eq(contacts.number, from), eq(tickets.whatsappId, own.connection.id)));
      expect(found).toHaveLength(1);
      return found;
    });
    await accept(row.ticket.id);
    app.fake.revokeToken(own.accessToken);
    const res = await reply(row.ticket.id, { body: "vai falhar" });
    expect(res.statusCode).toBe(201);
    const connection = await eventually(async () => {
      const current = await app.t.app.inject({ method: "GET", url: `/api/whatsapp/${own.connection.id}`, headers: admin.auth });
      const value = current.json() as Connection;
      expect(value).toMatchObject({ status: "DISCONNECTED", statusReason: "TOKEN_INVALID" });
      return value;
    });
    expect(connection.health?.lastError).toMatch(/access token/i);
    const [message] = await db()
      .select()
      .from(messages)
      .where(eq(messages.id, (res.json() as Message).id));
    expect(message).toMatchObject({ ack: 0, errorCode: null });
  });
});
