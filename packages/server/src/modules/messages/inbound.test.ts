import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  phoneReceived,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../../../test/harness.js";
import { contacts, messages, outbox, tickets } from "../../db/schema.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

async function countWhere(table: typeof contacts | typeof tickets | typeof messages, where: ReturnType<typeof eq>) {
  const [row] = await t.database.db.select({ n: count() }).from(table).where(where);
  return row.n;
}

describe("inbound pipeline", () => {
  it("turns 50 concurrent first messages of one new contact into one contact, one ticket and 50 messages", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const from = customerNumber();
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        customerWrites(t, admin, connection.id, { from, name: "Burst", body: `message ${i}` }),
      ),
    );
    const [contact] = await t.database.db.select().from(contacts).where(eq(contacts.number, from));
    expect(contact).toBeDefined();
    expect(await countWhere(contacts, eq(contacts.number, from))).toBe(1);
    expect(await countWhere(tickets, eq(tickets.contactId, contact.id))).toBe(1);
    const [ticket] = await t.database.db.select().from(tickets).where(eq(tickets.contactId, contact.id));
    expect(await countWhere(messages, eq(messages.ticketId, ticket.id))).toBe(50);
    expect(ticket.unreadMessages).toBe(50);
  });

  it("names a contact from WhatsApp only while nobody named it", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const unnamed = customerNumber();
    await t.database.db.insert(contacts).values({ number: unnamed, name: unnamed });
    await customerWrites(t, admin, connection.id, { from: unnamed, name: "Carla", body: "oi" });
    const [named] = await t.database.db.select().from(contacts).where(eq(contacts.number, unnamed));
    expect(named.name).toBe("Carla");
    await t.database.db.update(contacts).set({ name: "Carla (VIP)" }).where(eq(contacts.id, named.id));
    await customerWrites(t, admin, connection.id, { from: unnamed, name: "carla123", body: "again" });
    const [kept] = await t.database.db.select().from(contacts).where(eq(contacts.number, unnamed));
    expect(kept.name).toBe("Carla (VIP)");
  });

  it("stores a duplicate delivery once", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const from = customerNumber();
    const first = await customerWrites(t, admin, connection.id, { from, body: "only once", id: "DUP-1" });
    const second = await customerWrites(t, admin, connection.id, { from, body: "only once", id: "DUP-1" });
    expect(second).toBe(first);
    const [contact] = await t.database.db.select().from(contacts).where(eq(contacts.number, from));
    const [ticket] = await t.database.db.select().from(tickets).where(eq(tickets.contactId, contact.id));
    expect(await countWhere(messages, eq(messages.ticketId, ticket.id))).toBe(1);
    expect(ticket.unreadMessages).toBe(1);
  });

  it("assigns the only queue silently and keeps media, location, vCard and quotes", async () => {
    const queue = await makeQueue(t);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    const first = await customerWrites(t, admin, connection.id, { from, body: "hello" });
    await customerWrites(t, admin, connection.id, {
      from,
      body: "a photo",
      quotedId: first,
      media: { mimetype: "image/png", filename: "pic.png", dataBase64: PNG_1PX },
    });
    await customerWrites(t, admin, connection.id, {
      from,
      location: { latitude: -23.55, longitude: -46.63, description: "Av. Paulista" },
    });
    const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD";
    await customerWrites(t, admin, connection.id, { from, vcard });
    expect(await phoneReceived(t, admin, connection.id, from)).toHaveLength(0);
    // Media downloads run beside the connection's ordered events: wait for them.
    await t.pipeline.idle();

    const list = await listTickets(t, admin, { status: "pending", showAll: "true" });
    const ticket = list.tickets.find((x) => x.contact.number === from)!;
    expect(ticket.queueId).toBe(queue.id);
    const { messages: history } = await ticketMessages(t, admin, ticket.id);
    expect(history.map((m) => m.mediaType)).toEqual(["chat", "image", "location", "vcard"]);
    const image = history[1];
    expect(image.quotedMsg).toMatchObject({ body: "hello", fromMe: false });
    expect(image.mediaUrl).toBe(`/api/messages/${image.id}/media`);
    const file = await t.app.inject({ method: "GET", url: image.mediaUrl!, headers: admin.auth });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.rawPayload.equals(Buffer.from(PNG_1PX, "base64"))).toBe(true);
    expect(history[2].body).toBe("|https://maps.google.com/maps?q=-23.55%2C-46.63&z=17&hl=pt-BR|Av. Paulista");
    expect(history[3].body).toBe(vcard);
  });

  it("applies edits, revokes and acks to the stored row", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const from = customerNumber();
    const id = await customerWrites(t, admin, connection.id, { from, body: "typo" });
    for (const [path, payload] of [
      ["edit", { id, body: "fixed" }],
      ["revoke", { id }],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: `/api/simulator/${connection.id}/${path}`,
        headers: admin.auth,
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const [row] = await t.database.db.select().from(messages).where(eq(messages.wid, id));
    expect(row).toMatchObject({ body: "fixed", isEdited: true, isDeleted: true });
  });

  it("ignores group messages when CheckMsgIsGroup is enabled, and makes group tickets otherwise", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const group = `1203630${customerNumber()}`;
    const member = customerNumber();
    await customerWrites(t, admin, connection.id, {
      from: group,
      participant: member,
      isGroup: true,
      groupName: "Team",
      body: "hi all",
    });
    const groupTickets = await listTickets(t, admin, { showAll: "true", status: "pending" });
    const groupTicket = groupTickets.tickets.find((x) => x.isGroup && x.contact.name === "Team");
    expect(groupTicket).toBeDefined();

    await t.app.inject({
      method: "PUT",
      url: "/api/settings/CheckMsgIsGroup",
      headers: admin.auth,
      payload: { value: "enabled" },
    });
    await customerWrites(t, admin, connection.id, {
      from: `1203630${customerNumber()}`,
      participant: customerNumber(),
      isGroup: true,
      groupName: "Ignored",
      body: "hello?",
    });
    const after = await listTickets(t, admin, { showAll: "true", status: "pending" });
    expect(after.tickets.find((x) => x.contact.name === "Ignored")).toBeUndefined();
    await t.app.inject({
      method: "PUT",
      url: "/api/settings/CheckMsgIsGroup",
      headers: admin.auth,
      payload: { value: "disabled" },
    });
  });

  it("rejects calls with a notice when calls are disabled", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    await t.app.inject({ method: "PUT", url: "/api/settings/call", headers: admin.auth, payload: { value: "disabled" } });
    const from = customerNumber();
    const res = await t.app.inject({
      method: "POST",
      url: `/api/simulator/${connection.id}/call`,
      headers: admin.auth,
      payload: { from },
    });
    expect(res.statusCode, res.body).toBe(200);
    const received = await eventually(async () => {
      const list = await phoneReceived(t, admin, connection.id, from);
      expect(list).toHaveLength(1);
      return list;
    });
    expect(received[0].body).toMatch(/chamadas de voz e vídeo estão desabilitadas/i);
    const tickets = await listTickets(t, admin, { showAll: "true", status: "pending" });
    const ticket = tickets.tickets.find((x) => x.contact.number === from)!;
    const history = await ticketMessages(t, admin, ticket.id);
    expect(history.messages.map((m) => m.mediaType)).toEqual(["call", "chat"]);
    await t.app.inject({ method: "PUT", url: "/api/settings/call", headers: admin.auth, payload: { value: "enabled" } });
  });
});

describe("durable outbox", () => {
  it("sends a message stored before a restart exactly once after it", async () => {
    const database = await openTestDatabase();
    const first = await createTestApp({ database });
    const firstAdmin = await makeAdmin(first);
    const agent = await makeUser(first);
    const connection = await makeSimulatorConnection(first, firstAdmin, { isDefault: true });
    const from = customerNumber();
    await customerWrites(first, firstAdmin, connection.id, { from, body: "hi" });
    const { tickets: list } = await listTickets(first, firstAdmin, { showAll: "true", status: "pending" });
    const ticket = list.find((x) => x.contact.number === from)!;
    await first.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: agent.auth,
      payload: { status: "open", userId: agent.id },
    });
    await first.outbox.stop();
    const sent = await first.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: agent.auth,
      payload: { body: "after restart" },
    });
    expect(sent.statusCode).toBe(201);
    expect(await first.database.db.select().from(outbox)).toHaveLength(1);
    await first.app.close();

    const second = await createTestApp({ database });
    try {
      const secondAdmin = await makeAdmin(second);
      await eventually(async () => {
        expect(await phoneReceived(second, secondAdmin, connection.id, from)).toHaveLength(1);
        expect(await second.database.db.select().from(outbox)).toHaveLength(0);
      });
      await second.outbox.drain();
      expect(await phoneReceived(second, secondAdmin, connection.id, from)).toHaveLength(1);
    } finally {
      await second.app.close();
      await database.close();
      await database.drop();
    }
  });
});

const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
