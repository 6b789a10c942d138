import type { Message, Ticket } from "@zapdesk/core";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  phoneReceived,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { contacts, messages, tickets } from "../../db/schema.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

async function ticketOf(number: string): Promise<Ticket> {
  const res = await t.app.inject({
    method: "GET",
    url: "/api/tickets",
    headers: admin.auth,
    query: { showAll: "true", searchParam: number },
  });
  const found = (res.json() as { tickets: Ticket[] }).tickets.find((x) => x.contact.number === number);
  if (!found) throw new Error(`no ticket for ${number}`);
  return found;
}

async function put(user: TestUser, ticketId: number, payload: object) {
  const res = await t.app.inject({ method: "PUT", url: `/api/tickets/${ticketId}`, headers: user.auth, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Ticket;
}

async function messageCount(ticketId: number) {
  const [row] = await t.database.db.select({ n: count() }).from(messages).where(eq(messages.ticketId, ticketId));
  return row.n;
}

/** An accepted, then resolved ticket whose farewell message has left: the moment defect D1 bites. */
async function resolvedWithFarewell() {
  const queue = await makeQueue(t);
  const agent = await makeUser(t, { queueIds: [queue.id] });
  const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id], farewellMessage: "Bye, thanks!" });
  const customer = customerNumber();
  await customerWrites(t, admin, connection.id, { from: customer, name: "Rita", body: "hello", id: "IN-D1" });
  const ticket = await ticketOf(customer);
  await put(agent, ticket.id, { status: "open", userId: agent.id });
  await put(agent, ticket.id, { status: "closed", userId: agent.id });
  const farewell = await eventually(async () => {
    const received = await phoneReceived(t, admin, connection.id, customer);
    expect(received.map((m) => m.body)).toContain("Bye, thanks!");
    return received.find((m) => m.body === "Bye, thanks!")!;
  });
  return { connection, customer, ticket, agent, farewell };
}

describe("messages from our side and redeliveries never move a ticket", () => {
  it("the echo of the farewell leaves the resolved ticket closed and assigned, and adds nothing", async () => {
    const { connection, customer, ticket, agent, farewell } = await resolvedWithFarewell();
    const before = await messageCount(ticket.id);
    // What Baileys does with every message it sends: it comes back as an upsert from us.
    await t.pipeline.onMessage(connection.id, {
      wid: farewell.wid,
      chat: customer,
      isGroup: false,
      fromMe: true,
      timestamp: new Date(),
      type: "chat",
      body: "Bye, thanks!",
    });
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row).toMatchObject({ status: "closed", userId: agent.id });
    expect(await messageCount(ticket.id)).toBe(before);
  });

  it("a reply typed on the phone joins the resolved ticket without reopening it", async () => {
    const { connection, customer, ticket, agent } = await resolvedWithFarewell();
    const before = await messageCount(ticket.id);
    const [previous] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    await t.pipeline.onMessage(connection.id, {
      wid: "PHONE-TYPED-1",
      chat: customer,
      isGroup: false,
      fromMe: true,
      timestamp: new Date(),
      type: "chat",
      body: "one more thing from the phone",
    });
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row).toMatchObject({ status: "closed", userId: agent.id, unreadMessages: previous.unreadMessages });
    expect(await messageCount(ticket.id)).toBe(before + 1);
  });

  it("a redelivered customer message after the resolve is a no-op: no reopen, no write", async () => {
    const { connection, customer, ticket } = await resolvedWithFarewell();
    const [before] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    await customerWrites(t, admin, connection.id, { from: customer, body: "hello", id: "IN-D1" });
    const [after] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(after).toEqual(before);
    const all = await t.database.db
      .select({ n: count() })
      .from(tickets)
      .where(and(eq(tickets.contactId, ticket.contactId), eq(tickets.whatsappId, connection.id)));
    expect(all[0].n).toBe(1);
  });
});

describe("acks, refusals and reactions", () => {
  async function openTicketWithReply() {
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [(await makeQueue(t)).id] });
    const customer = customerNumber();
    const inbound = await customerWrites(t, admin, connection.id, { from: customer, name: "Ana", body: "hi" });
    const ticket = await ticketOf(customer);
    await put(admin, ticket.id, { status: "open", userId: admin.id });
    const sent = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: admin.auth,
      payload: { body: "Hello Ana" },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const message = sent.json() as Message;
    const wid = await eventually(async () => {
      const [row] = await t.database.db.select().from(messages).where(eq(messages.id, message.id));
      expect(row.ack).toBe(1);
      return row.wid as string;
    });
    return { connection, customer, inbound, ticket, message, wid };
  }

  const shown = async (ticketId: number, id: number) =>
    (await ticketMessages(t, admin, ticketId)).messages.find((m) => m.id === id)!;

  it("a sent message shows ack 1 from the send itself and keeps what the channel returned", async () => {
    const { message, wid } = await openTicketWithReply();
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, message.id));
    expect(row.raw).toMatchObject({ simulator: { wid } });
  });

  it("a refusal fails the message with its reason, a late 'sent' does not undo it, and the agent sends it again", async () => {
    const { connection, ticket, message, wid } = await openTicketWithReply();
    const refuse = await t.app.inject({
      method: "POST",
      url: `/api/simulator/${connection.id}/ack`,
      headers: admin.auth,
      payload: { id: wid, ack: -1, error: { code: "463", title: "Account restricted" } },
    });
    expect(refuse.statusCode, refuse.body).toBe(200);
    expect(await shown(ticket.id, message.id)).toMatchObject({ ack: -1, error: { code: "463", title: "Account restricted" } });
    await t.pipeline.onUpdate(connection.id, { wid, chat: ticket.contact.number, fromMe: true, ack: 1 });
    expect((await shown(ticket.id, message.id)).ack).toBe(-1);

    const outsider = await makeUser(t, { queueIds: [(await makeQueue(t)).id] });
    const hidden = await t.app.inject({ method: "POST", url: `/api/messages/${message.id}/retry`, headers: outsider.auth });
    expect(hidden.statusCode).toBe(404);
    const retry = await t.app.inject({ method: "POST", url: `/api/messages/${message.id}/retry`, headers: admin.auth });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ ack: 0, error: null });
    await eventually(async () => expect((await shown(ticket.id, message.id)).ack).toBe(1));
    const received = await phoneReceived(t, admin, connection.id, ticket.contact.number);
    expect(received.filter((m) => m.body === "Hello Ana")).toHaveLength(2);
    const again = await t.app.inject({ method: "POST", url: `/api/messages/${message.id}/retry`, headers: admin.auth });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("ERR_MESSAGE_NOT_FAILED");
  });

  it("a delivery clears a refusal; acks never move backwards", async () => {
    const { connection, ticket, message, wid } = await openTicketWithReply();
    const chat = ticket.contact.number;
    await t.pipeline.onUpdate(connection.id, { wid, chat, fromMe: true, ack: -1, error: { code: "479", title: "x" } });
    await t.pipeline.onUpdate(connection.id, { wid, chat, fromMe: true, ack: 3 });
    expect(await shown(ticket.id, message.id)).toMatchObject({ ack: 3, error: null });
    await t.pipeline.onUpdate(connection.id, { wid, chat, fromMe: true, ack: 2 });
    await t.pipeline.onUpdate(connection.id, { wid, chat, fromMe: true, ack: -1, error: { code: "479", title: "x" } });
    expect((await shown(ticket.id, message.id)).ack).toBe(3);
  });

  it("reactions land under their message, one per participant, and can be withdrawn", async () => {
    const { connection, customer, inbound, ticket } = await openTicketWithReply();
    const react = (emoji: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/simulator/${connection.id}/reaction`,
        headers: admin.auth,
        payload: { id: inbound, from: customer, emoji },
      });
    expect((await react("👍")).statusCode).toBe(200);
    expect((await react("❤️")).statusCode).toBe(200);
    const target = (await ticketMessages(t, admin, ticket.id)).messages.find((m) => m.body === "hi")!;
    expect(target.reactions).toEqual([{ emoji: "❤️", fromMe: false, name: "Ana" }]);
    await react("");
    expect((await ticketMessages(t, admin, ticket.id)).messages.find((m) => m.body === "hi")!.reactions).toEqual([]);
  });
});

describe("group edits and revokes", () => {
  it("only the author of a message may edit or revoke it", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const group = `120363${Date.now()}`.slice(0, 18);
    const alice = customerNumber();
    const bob = customerNumber();
    await customerWrites(t, admin, connection.id, {
      from: group,
      isGroup: true,
      groupName: "Buyers",
      participant: alice,
      name: "Alice",
      body: "pay 100",
      id: "GROUP-PAY",
    });
    const base = { wid: "GROUP-PAY", chat: group, fromMe: false };
    await t.pipeline.onUpdate(connection.id, { ...base, author: bob, editedBody: "pay 900" });
    await t.pipeline.onUpdate(connection.id, { ...base, author: bob, revoked: true });
    const [kept] = await t.database.db.select().from(messages).where(eq(messages.wid, "GROUP-PAY"));
    expect(kept).toMatchObject({ body: "pay 100", isEdited: false, isDeleted: false });
    await t.pipeline.onUpdate(connection.id, { ...base, author: alice, editedBody: "pay 110" });
    const [edited] = await t.database.db.select().from(messages).where(eq(messages.wid, "GROUP-PAY"));
    expect(edited).toMatchObject({ body: "pay 110", isEdited: true });
  });

  it("a group message without its subject (metadata slow) keeps the group's name", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const group = `120364${Date.now()}`.slice(0, 18);
    const member = customerNumber();
    const write = (body: string, groupName?: string) =>
      customerWrites(t, admin, connection.id, { from: group, isGroup: true, groupName, participant: member, body });
    await write("first", "Suppliers");
    await write("second");
    const [row] = await t.database.db.select().from(contacts).where(eq(contacts.number, group));
    expect(row.name).toBe("Suppliers");
    await write("third", "Suppliers 2026");
    const [renamed] = await t.database.db.select().from(contacts).where(eq(contacts.number, group));
    expect(renamed.name).toBe("Suppliers 2026");
  });
});
