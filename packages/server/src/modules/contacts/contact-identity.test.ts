import type { Message, Ticket } from "@zapdesk/core";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  phoneReceived,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { contacts, lidMappings, tickets } from "../../db/schema.js";

let t: TestApp;
let admin: TestUser;
let lidCounter = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const newLid = () => `${9_000_000_000_000 + process.pid * 1000 + ++lidCounter}@lid`;

async function reveal(whatsappId: number, lid: string, pn: string) {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/simulator/${whatsappId}/identity`,
    headers: admin.auth,
    payload: { lid, pn },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function contactTickets(number: string) {
  const [contact] = await t.database.db.select().from(contacts).where(eq(contacts.number, number));
  if (!contact) return { contact, tickets: [] };
  return { contact, tickets: await t.database.db.select().from(tickets).where(eq(tickets.contactId, contact.id)) };
}

async function reply(ticketId: number, body: string) {
  await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticketId}`,
    headers: admin.auth,
    payload: { status: "open", userId: admin.id },
  });
  const res = await t.app.inject({ method: "POST", url: `/api/messages/${ticketId}`, headers: admin.auth, payload: { body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Message;
}

describe("customers WhatsApp shows only by LID", () => {
  it("are answered at their LID, never at the LID digits taken for a phone number", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const lid = newLid();
    await customerWrites(t, admin, connection.id, { from: lid, name: "Hidden", body: "oi" });
    const {
      contact,
      tickets: [ticket],
    } = await contactTickets(lid);
    expect(contact).toMatchObject({ number: lid, lid, name: "Hidden" });
    await reply(ticket.id, "Olá!");
    await eventually(async () =>
      expect((await phoneReceived(t, admin, connection.id, lid)).map((m) => m.body)).toEqual(["Olá!"]),
    );
    const digits = lid.replace("@lid", "");
    expect(await phoneReceived(t, admin, connection.id, digits)).toEqual([]);
  });

  it("become their phone-number contact once WhatsApp tells the number; later messages by either address join them", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const lid = newLid();
    const pn = customerNumber();
    await customerWrites(t, admin, connection.id, { from: lid, body: "first, by LID" });
    const before = await contactTickets(lid);
    await reveal(connection.id, lid, pn);
    const after = await contactTickets(pn);
    expect(after.contact).toMatchObject({ id: before.contact.id, number: pn, lid, name: pn });
    expect(after.tickets.map((x) => x.id)).toEqual(before.tickets.map((x) => x.id));
    await customerWrites(t, admin, connection.id, { from: pn, body: "second, by number" });
    await customerWrites(t, admin, connection.id, { from: lid, body: "third, by LID again" });
    const final = await contactTickets(pn);
    expect(final.tickets).toHaveLength(1);
    expect((await ticketMessages(t, admin, final.tickets[0].id)).messages.map((m) => m.body)).toEqual([
      "first, by LID",
      "second, by number",
      "third, by LID again",
    ]);
    expect((await contactTickets(lid)).contact).toBeUndefined();
    const [mapping] = await t.database.db.select().from(lidMappings).where(eq(lidMappings.lid, lid));
    expect(mapping.pn).toBe(pn);
  });

  it("merge into the contact that already has the number: one contact, one conversation, replies to the number", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const lid = newLid();
    const pn = customerNumber();
    await customerWrites(t, admin, connection.id, { from: pn, name: "Paula", body: "by number" });
    await customerWrites(t, admin, connection.id, { from: lid, body: "by LID" });
    const split = await Promise.all([contactTickets(pn), contactTickets(lid)]);
    expect(split.map((x) => x.tickets.length)).toEqual([1, 1]);
    const lidTicketId = split[1].tickets[0].id;

    await reveal(connection.id, lid, pn);
    const merged = await contactTickets(pn);
    expect(merged.contact).toMatchObject({ name: "Paula", lid });
    expect(merged.tickets).toHaveLength(1);
    expect(merged.tickets[0].unreadMessages).toBe(2);
    const history = await ticketMessages(t, admin, merged.tickets[0].id);
    expect(history.messages.map((m) => m.body)).toEqual(["by number", "by LID"]);
    expect(
      await t.database.db
        .select()
        .from(tickets)
        .where(inArray(tickets.id, [lidTicketId])),
    ).toEqual([]);
    expect((await contactTickets(lid)).contact).toBeUndefined();

    await reply(merged.tickets[0].id, "one answer");
    await eventually(async () =>
      expect((await phoneReceived(t, admin, connection.id, pn)).map((m) => m.body)).toContain("one answer"),
    );
    const listed = await t.app.inject({
      method: "GET",
      url: "/api/tickets",
      headers: admin.auth,
      query: { showAll: "true", searchParam: pn },
    });
    expect((listed.json() as { tickets: Ticket[] }).tickets.map((x) => x.id)).toEqual([merged.tickets[0].id]);
  });

  it("keep reaching the contact an admin gave a phone number by hand", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const lid = newLid();
    const pn = customerNumber();
    await customerWrites(t, admin, connection.id, { from: lid, body: "before the edit" });
    const { contact } = await contactTickets(lid);
    const edit = await t.app.inject({
      method: "PUT",
      url: `/api/contacts/${contact.id}`,
      headers: admin.auth,
      payload: { number: pn },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await customerWrites(t, admin, connection.id, { from: lid, body: "after the edit" });
    const after = await contactTickets(pn);
    expect(after.contact).toMatchObject({ id: contact.id, lid });
    expect(after.tickets).toHaveLength(1);
    expect((await ticketMessages(t, admin, after.tickets[0].id)).messages.map((m) => m.body)).toEqual([
      "before the edit",
      "after the edit",
    ]);
  });

  it("refuses mappings that are not a LID and a phone number", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const bad = await t.app.inject({
      method: "POST",
      url: `/api/simulator/${connection.id}/identity`,
      headers: admin.auth,
      payload: { lid: "12345678", pn: "5511999990000" },
    });
    expect(bad.statusCode).toBe(400);
    await t.pipeline.onIdentity(connection.id, { lid: "not-a-lid", pn: "5511999990000" });
    const [mapping] = await t.database.db.select().from(lidMappings).where(eq(lidMappings.lid, "not-a-lid"));
    expect(mapping).toBeUndefined();
  });
});

describe("Brazil's ninth digit, whatever the channel (issue 18)", () => {
  const twins = () => {
    const rest = `9${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    return { typed: `55219${rest}`, waId: `5521${rest}` };
  };

  it("a message from WhatsApp's form lands in the contact kept under the other, on the batched and the one-message path", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    for (const quoted of [false, true]) {
      const { typed, waId } = twins();
      const [kept] = await t.database.db.insert(contacts).values({ name: "Kept", number: typed }).returning();
      const started = await t.app.inject({
        method: "POST",
        url: "/api/tickets",
        headers: admin.auth,
        payload: { contactId: kept.id, status: "open", whatsappId: connection.id },
      });
      expect(started.statusCode, started.body).toBe(200);
      // A quote is never batched: a quoting message takes the one-message path.
      await customerWrites(t, admin, connection.id, {
        from: waId,
        name: "Kept",
        body: "first",
        ...(quoted ? { quotedId: "3EB0SOMETHINGOLDER" } : {}),
      });
      if (quoted) await customerWrites(t, admin, connection.id, { from: waId, body: "second" });
      const after = await contactTickets(waId);
      expect(after.contact).toMatchObject({ id: kept.id, number: waId });
      expect(after.tickets.map((x) => x.id)).toEqual([started.json().id]);
      expect((await contactTickets(typed)).contact).toBeUndefined();
      expect((await ticketMessages(t, admin, started.json().id)).messages.map((m) => m.body)).toEqual(
        quoted ? ["first", "second"] : ["first"],
      );
    }
  });

  it("a group participant's message from WhatsApp's form is written by the contact kept under the other", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const { typed, waId } = twins();
    const [kept] = await t.database.db.insert(contacts).values({ name: "Member", number: typed }).returning();
    await customerWrites(t, admin, connection.id, {
      from: `120363${Date.now()}`,
      isGroup: true,
      groupName: "Family",
      participant: waId,
      body: "oi grupo",
    });
    await eventually(async () => expect((await contactTickets(waId)).contact).toMatchObject({ id: kept.id }));
  });
});
