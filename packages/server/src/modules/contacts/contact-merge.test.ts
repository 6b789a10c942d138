import type { Connection, ContactChange, Ticket } from "@zapdesk/core";
import { eq, inArray } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, expectNoLeak, type TestApp } from "../../../test/harness.js";
import { connectAs, listen } from "../../../test/sockets.js";
import { contactExtraInfo, contacts, contactTags, scheduledMessages, tickets } from "../../db/schema.js";

/**
 * Issue 18: an admin merges two contacts of one person (ninth-digit twins made before WhatsApp
 * was asked, a customer who wrote from two numbers). The duplicate's conversation, history,
 * extra info, tags and schedules follow it into the contact that stays, in one transaction.
 */
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let connection: Connection;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  agent = await makeUser(t);
  connection = await makeSimulatorConnection(t, admin);
  url = await listen(t);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => t.close());

const merge = (who: TestUser, keepId: number, payload: unknown) =>
  t.app.inject({ method: "POST", url: `/api/contacts/${keepId}/merge`, headers: who.auth, payload: payload as object });

async function conversation(name: string) {
  const number = customerNumber();
  await customerWrites(t, admin, connection.id, { from: number, name, body: `sou ${name}` });
  const [contact] = await t.database.db.select().from(contacts).where(eq(contacts.number, number));
  const [ticket] = await t.database.db.select().from(tickets).where(eq(tickets.contactId, contact.id));
  return { contact, ticket };
}

describe("POST /api/contacts/:id/merge", () => {
  it("folds the duplicate in: one contact, one conversation, its extra info, tags, schedules and history; events after commit", async () => {
    const keep = await conversation("Rita");
    const duplicate = await conversation("Rita 2");
    const tag = await t.app.inject({
      method: "POST",
      url: "/api/tags",
      headers: admin.auth,
      payload: { name: "vip", color: "#112233" },
    });
    expect(tag.statusCode, tag.body).toBe(200);
    const edited = await t.app.inject({
      method: "PUT",
      url: `/api/contacts/${duplicate.contact.id}`,
      headers: admin.auth,
      payload: { email: "rita@example.com", extraInfo: [{ name: "CPF", value: "123" }], tagIds: [tag.json().id] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const schedule = await t.app.inject({
      method: "POST",
      url: "/api/schedules",
      headers: admin.auth,
      payload: { contactId: duplicate.contact.id, body: "depois", sendAt: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(schedule.statusCode, schedule.body).toBe(201);
    const watcher = await connectAs(url, admin, sockets);

    const res = await merge(admin, keep.contact.id, { duplicateId: duplicate.contact.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: keep.contact.id,
      number: keep.contact.number,
      name: "Rita",
      email: "rita@example.com",
      extraInfo: [{ name: "CPF", value: "123" }],
      tags: [{ name: "vip" }],
    });

    const db = t.database.db;
    expect(await db.select().from(contacts).where(eq(contacts.id, duplicate.contact.id))).toEqual([]);
    const own = await db
      .select()
      .from(tickets)
      .where(inArray(tickets.contactId, [keep.contact.id, duplicate.contact.id]));
    expect(own.map((x) => x.id)).toEqual([keep.ticket.id]);
    expect(own[0].unreadMessages).toBe(2);
    const history = await ticketMessages(t, admin, keep.ticket.id);
    expect(history.messages.map((m) => m.body)).toEqual(["sou Rita", "sou Rita 2"]);
    expect(await db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, keep.contact.id))).toHaveLength(1);
    expect(await db.select().from(contactTags).where(eq(contactTags.contactId, keep.contact.id))).toHaveLength(1);
    const [moved] = await db.select().from(scheduledMessages).where(eq(scheduledMessages.id, schedule.json().id));
    expect(moved.contactId).toBe(keep.contact.id);
    const changes = await t.app.inject({ method: "GET", url: `/api/contacts/${keep.contact.id}/changes`, headers: admin.auth });
    expect((changes.json() as { changes: ContactChange[] }).changes).toMatchObject([
      { oldNumber: duplicate.contact.number, newNumber: keep.contact.number, userId: admin.id },
    ]);

    await eventually(() => {
      const names = watcher.received.map((e) => [e.event, (e.payload as { action?: string }).action]);
      expect(watcher.received).toContainEqual({
        event: "contact",
        payload: { action: "delete", contactId: duplicate.contact.id },
      });
      expect(watcher.received).toContainEqual({
        event: "ticket",
        payload: expect.objectContaining({ action: "delete", ticketId: duplicate.ticket.id }),
      });
      expect(names).toContainEqual(["contact", "update"]);
    });
    const listed = await t.app.inject({ method: "GET", url: "/api/tickets?showAll=true", headers: admin.auth });
    expect((listed.json() as { tickets: Ticket[] }).tickets.map((x) => x.id)).not.toContain(duplicate.ticket.id);
  });

  it("is for admins, refuses a contact merged into itself, a group, an unknown id and a bad body, with codes and no leak", async () => {
    const a = await conversation("Ana");
    const b = await conversation("Bia");
    const [group] = await t.database.db
      .insert(contacts)
      .values({ name: "Grupo", number: `1203630${Date.now()}`, isGroup: true })
      .returning();
    const cases: [TestUser, number, unknown, number, string][] = [
      [agent, a.contact.id, { duplicateId: b.contact.id }, 403, "ERR_NO_PERMISSION"],
      [admin, a.contact.id, { duplicateId: a.contact.id }, 400, "ERR_CONTACT_MERGE_SAME"],
      [admin, a.contact.id, { duplicateId: group.id }, 409, "ERR_CONTACT_MERGE_GROUP"],
      [admin, a.contact.id, { duplicateId: 2147483000 }, 404, "ERR_NO_CONTACT_FOUND"],
      [admin, a.contact.id, { duplicateId: "b" }, 400, "ERR_VALIDATION"],
      [admin, a.contact.id, { duplicateId: b.contact.id, extra: 1 }, 400, "ERR_VALIDATION"],
    ];
    for (const [who, keepId, body, status, error] of cases) {
      const res = await merge(who, keepId, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ error });
      expectNoLeak(res.body);
    }
    expect(await t.database.db.select().from(contacts).where(eq(contacts.id, b.contact.id))).toHaveLength(1);
  });

  it("is listed in the OpenAPI document", async () => {
    const doc = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(Object.keys((doc.json() as { paths: Record<string, unknown> }).paths)).toContain("/api/contacts/{id}/merge");
  });
});
