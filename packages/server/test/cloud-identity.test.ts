import { randomBytes } from "node:crypto";
import type { Contact, ContactChange, Message, Ticket } from "@zapdesk/core";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, messages, tickets } from "../src/db/schema.js";
import { type CloudConnection, customerPhone, makeCloudConnection, messagesOf, startCloudApp } from "./cloud-rig.js";
import { eventually } from "./conversation.js";
import { makeAdmin, type TestUser } from "./factories.js";
import { payloads } from "./graph-fake/index.js";

const { text, bsuidOf, userChangedUserId } = payloads;

/**
 * Issue 18 §3 on the Cloud API, through the Graph fake in Meta's 2026 shapes: Brazil's ninth
 * digit (the send answer's wa_id, and a reply from WhatsApp's form), customers known by a
 * business-scoped user id (BSUID) alone, and a BSUID that changes.
 */
describe("Cloud API: one customer is one contact", () => {
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let cloud: CloudConnection;

  beforeAll(async () => {
    app = await startCloudApp();
    admin = await makeAdmin(app.t);
    cloud = await makeCloudConnection(app, admin);
    app.fake.setTemplates(cloud.businessAccountId, [
      {
        id: "1",
        name: "boas_vindas",
        language: "pt_BR",
        status: "APPROVED",
        category: "UTILITY",
        components: [{ type: "BODY", text: "Olá!" }],
      },
      {
        id: "2",
        name: "codigo",
        language: "pt_BR",
        status: "APPROVED",
        category: "AUTHENTICATION",
        components: [{ type: "BODY", text: "Seu código é {{1}}." }],
      },
    ]);
    const synced = await call("POST", `/api/whatsapp/${cloud.connection.id}/templates/sync`);
    expect(synced.statusCode, synced.body).toBe(200);
  });
  afterAll(async () => app?.close());

  const db = () => app.t.database.db;
  const call = (method: "GET" | "POST" | "PUT", url: string, payload?: Record<string, unknown>) =>
    app.t.app.inject({ method, url, headers: admin.auth, ...(payload ? { payload } : {}) });

  /** A Brazilian mobile WhatsApp knows without the ninth digit, and the form an agent types. */
  function brazilianTwins() {
    const rest = `8${Array.from(randomBytes(7), (b) => b % 10).join("")}`;
    return { typed: `55319${rest}`, waId: `5531${rest}` };
  }

  const contactsAt = (numbers: string[]) => db().select().from(contacts).where(inArray(contacts.number, numbers));
  const ticketsOf = (contactId: number) => db().select().from(tickets).where(eq(tickets.contactId, contactId));

  async function startTicket(number: string, name: string) {
    const created = await call("POST", "/api/contacts", { name, number });
    expect(created.statusCode, created.body).toBe(200);
    const contact = created.json() as Contact;
    const ticket = await call("POST", "/api/tickets", { contactId: contact.id, status: "open", whatsappId: cloud.connection.id });
    expect(ticket.statusCode, ticket.body).toBe(200);
    return { contact, ticket: ticket.json() as Ticket };
  }

  /** The stored row of a message once the outbox has sent it (its wid is Meta's wamid). */
  const sentRow = (id: number) =>
    eventually(async () => {
      const [row] = await db().select().from(messages).where(eq(messages.id, id));
      expect(row.wid).toMatch(/^wamid\./);
      return row;
    });

  async function reply(ticketId: number, body: string) {
    const res = await call("POST", `/api/messages/${ticketId}`, { body });
    expect(res.statusCode, res.body).toBe(201);
    return sentRow((res.json() as Message).id);
  }

  it("ninth digit: the number an agent typed moves to the wa_id of Meta's send answer; the reply joins its contact and ticket", async () => {
    const { typed, waId } = brazilianTwins();
    app.fake.addUser({ waId, aliases: [typed] });
    const { contact, ticket } = await startTicket(typed, "Rita");
    expect(contact.number).toBe(typed);

    const templated = await call("POST", `/api/messages/${ticket.id}/template`, { name: "boas_vindas", language: "pt_BR" });
    expect(templated.statusCode, templated.body).toBe(201);
    await sentRow((templated.json() as Message).id);
    expect(app.fake.sentMessages(cloud.phoneNumberId).at(-1)).toMatchObject({ to: typed, type: "template" });
    await eventually(async () => expect((await contactsAt([typed, waId])).map((c) => c.number)).toEqual([waId]));

    await cloud.meta.deliver(cloud.meta.message(text({ from: waId, body: "oi, recebi" }), "Rita"));
    await eventually(async () => expect((await messagesOf(app.t, admin, ticket.id)).map((m) => m.body)).toContain("oi, recebi"));
    const [only] = await contactsAt([typed, waId]);
    expect(only).toMatchObject({ id: contact.id, number: waId, name: "Rita", bsuid: bsuidOf(waId) });
    expect((await ticketsOf(contact.id)).map((t) => t.id)).toEqual([ticket.id]);
    // The agent's next answer goes to WhatsApp's form; the history says who changed the number.
    await reply(ticket.id, "Que bom!");
    expect(app.fake.sentMessages(cloud.phoneNumberId).at(-1)).toMatchObject({ to: waId, text: { body: "Que bom!" } });
    const changes = await call("GET", `/api/contacts/${contact.id}/changes`);
    expect((changes.json() as { changes: ContactChange[] }).changes).toMatchObject([
      { oldNumber: typed, newNumber: waId, userName: "WhatsApp", userId: null },
    ]);
  });

  it("ninth digit safety net: a burst from WhatsApp's form, before any send, lands in the contact kept under the typed form", async () => {
    const { typed, waId } = brazilianTwins();
    const { contact, ticket } = await startTicket(typed, "Caio");
    const burst = [text({ from: waId, body: "primeira" }), text({ from: waId, body: "segunda" })];
    const delivery = cloud.meta.message(burst[0], "Caio");
    (delivery.entry[0].changes[0].value as Record<string, unknown>).messages = burst;
    await cloud.meta.deliver(delivery);
    await eventually(async () =>
      expect((await messagesOf(app.t, admin, ticket.id)).map((m) => m.body)).toEqual(["primeira", "segunda"]),
    );
    expect((await contactsAt([typed, waId])).map((c) => [c.id, c.number])).toEqual([[contact.id, waId]]);
    expect((await ticketsOf(contact.id)).map((t) => t.id)).toEqual([ticket.id]);
  });

  it("ninth digit: the other form of an existing contact is refused as a duplicate when WhatsApp cannot be asked", async () => {
    const { typed, waId } = brazilianTwins();
    await cloud.meta.deliver(cloud.meta.message(text({ from: waId, body: "olá" }), "Lia"));
    await eventually(async () => expect(await contactsAt([waId])).toHaveLength(1));
    const twin = await call("POST", "/api/contacts", { name: "Lia de novo", number: typed });
    expect(twin.statusCode).toBe(409);
    expect(twin.json()).toMatchObject({ error: "ERR_DUPLICATED_CONTACT" });
  });

  it("ninth digit: the API-token send to the typed form reaches the customer's contact and ticket under WhatsApp's form", async () => {
    const { typed, waId } = brazilianTwins();
    await cloud.meta.deliver(cloud.meta.message(text({ from: waId, body: "quero saber do pedido" }), "Téo"));
    const ticket = await eventually(async () => {
      const [contact] = await contactsAt([waId]);
      const [row] = await ticketsOf(contact.id);
      expect(row).toBeDefined();
      return row;
    });
    const settings = await call("GET", "/api/settings");
    const token = (settings.json() as { key: string; value: string }[]).find((x) => x.key === "userApiToken")?.value;
    const sent = await app.t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}` },
      payload: { number: typed, body: "Seu pedido saiu" },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ ticketId: ticket.id });
    await eventually(() =>
      expect(app.fake.sentMessages(cloud.phoneNumberId).at(-1)).toMatchObject({ to: waId, text: { body: "Seu pedido saiu" } }),
    );
    expect(await contactsAt([typed])).toEqual([]);
  });

  it("a username customer whose number is withheld: a contact keyed by the BSUID, answered with `recipient`, acked by recipient_user_id", async () => {
    const phone = customerPhone();
    const bsuid = bsuidOf(phone);
    await cloud.meta.deliver(cloud.meta.message(text({ from: phone, hidePhone: true, body: "oi" }), "Bruna", "bruna.s"));
    const [contact] = await eventually(async () => {
      const rows = await contactsAt([bsuid]);
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(contact).toMatchObject({ number: bsuid, bsuid, name: "Bruna", username: "bruna.s" });
    expect(await contactsAt([phone])).toEqual([]);
    const [ticket] = await ticketsOf(contact.id);
    const presented = await call("GET", `/api/contacts/${contact.id}`);
    expect(presented.json()).toMatchObject({ number: bsuid, username: "bruna.s" });

    await call("PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: admin.id });
    const sent = await reply(ticket.id, "Olá Bruna");
    const body = app.fake.sentMessages(cloud.phoneNumberId).at(-1);
    expect(body).toMatchObject({ recipient_type: "individual", recipient: bsuid, text: { body: "Olá Bruna" } });
    expect(body).not.toHaveProperty("to");
    const status = app.fake.statusOf(sent.wid as string, "delivered");
    const delivered = cloud.meta.statuses([status]);
    const [reported] = (delivered.entry[0].changes[0].value as unknown as { statuses: Record<string, unknown>[] }).statuses;
    expect(reported).toMatchObject({ recipient_user_id: bsuid });
    expect(reported).not.toHaveProperty("recipient_id");
    await cloud.meta.deliver(delivered);
    await eventually(async () => {
      const [row] = await db().select().from(messages).where(eq(messages.id, sent.id));
      expect(row.ack).toBe(2);
    });

    // Later a payload carries the number and the BSUID: the same contact and ticket get the number.
    await cloud.meta.deliver(cloud.meta.message(text({ from: phone, body: "meu número" }), "Bruna", "bruna.s"));
    // (Meta's timestamps have whole seconds: the order within one second is not the point here.)
    await eventually(async () =>
      expect((await messagesOf(app.t, admin, ticket.id)).map((m) => m.body).sort()).toEqual(["Olá Bruna", "meu número", "oi"]),
    );
    expect(await contactsAt([bsuid, phone])).toMatchObject([{ id: contact.id, number: phone, bsuid, username: "bruna.s" }]);
    await reply(ticket.id, "Anotado");
    expect(app.fake.sentMessages(cloud.phoneNumberId).at(-1)).toMatchObject({ to: phone, text: { body: "Anotado" } });
  });

  it("a BSUID customer writes again after their phone number became known: no second contact", async () => {
    const phone = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(text({ from: phone, body: "com número" }), "Davi"));
    await eventually(async () => expect(await contactsAt([phone])).toHaveLength(1));
    await cloud.meta.deliver(cloud.meta.message(text({ from: phone, hidePhone: true, body: "sem número" }), "Davi"));
    const [contact] = await contactsAt([phone]);
    await eventually(async () => {
      const [ticket] = await ticketsOf(contact.id);
      expect((await messagesOf(app.t, admin, ticket.id)).map((m) => m.body)).toEqual(["com número", "sem número"]);
    });
    expect(await contactsAt([bsuidOf(phone)])).toEqual([]);
  });

  it("user_changed_user_id: the contact known by its BSUID alone follows the new one; replies go there", async () => {
    const phone = customerPhone();
    const before = bsuidOf(phone);
    const after = `BR.${BigInt(`0x${randomBytes(7).toString("hex")}`)}`;
    await cloud.meta.deliver(cloud.meta.message(text({ from: phone, hidePhone: true, body: "oi" }), "Eva"));
    const [contact] = await eventually(async () => {
      const rows = await contactsAt([before]);
      expect(rows).toHaveLength(1);
      return rows;
    });
    await cloud.meta.deliver(cloud.meta.system(userChangedUserId({ previousUserId: before, userId: after })));
    await eventually(async () => expect(await contactsAt([after])).toMatchObject([{ id: contact.id, bsuid: after }]));
    const [ticket] = await ticketsOf(contact.id);
    await call("PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: admin.id });
    await reply(ticket.id, "Continua aqui?");
    expect(app.fake.sentMessages(cloud.phoneNumberId).at(-1)).toMatchObject({ recipient: after });
  });

  it("an authentication template cannot go to a BSUID: Meta's 131062 fails the message with its reason", async () => {
    const phone = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(text({ from: phone, hidePhone: true, body: "código?" }), "Ivo"));
    const [contact] = await eventually(async () => {
      const rows = await contactsAt([bsuidOf(phone)]);
      expect(rows).toHaveLength(1);
      return rows;
    });
    const [ticket] = await ticketsOf(contact.id);
    await call("PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: admin.id });
    const res = await call("POST", `/api/messages/${ticket.id}/template`, {
      name: "codigo",
      language: "pt_BR",
      bodyParams: ["123"],
    });
    expect(res.statusCode, res.body).toBe(201);
    await eventually(async () => {
      const [row] = await db()
        .select()
        .from(messages)
        .where(eq(messages.id, (res.json() as Message).id));
      expect(row).toMatchObject({ ack: -1, errorCode: "131062" });
    });
  });
});
