import type { Message, Ticket } from "@zapdesk/core";
import { eq } from "drizzle-orm";
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
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { multipart } from "../../../test/multipart.js";
import { noteMentions, outbox } from "../../db/schema.js";

let t: TestApp;
let admin: TestUser;
let author: TestUser;
let colleague: TestUser;
let outsider: TestUser;
let queueId: number;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  queueId = (await makeQueue(t)).id;
  author = await makeUser(t, { queueIds: [queueId], name: "Ana Author" });
  colleague = await makeUser(t, { queueIds: [queueId], name: "Bruno Colleague" });
  outsider = await makeUser(t, { name: "Otto Outsider" });
  connectionId = (await makeSimulatorConnection(t, admin, { isDefault: true })).id;
});
afterAll(() => t.close());

/** A customer's ticket in the queue, accepted by the author (the outsider is in no queue: no access). */
async function ticketInQueue(status: "open" | "pending" | "closed" = "open") {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "hello, I need help" });
  const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
    (x) => x.contact.number === from,
  )!;
  const put = (payload: object) =>
    t.app.inject({ method: "PUT", url: `/api/tickets/${ticket.id}`, headers: admin.auth, payload });
  let res = await put({ queueId, status: "pending" });
  expect(res.statusCode, res.body).toBe(200);
  if (status !== "pending") res = await put({ status: "open", userId: author.id });
  if (status === "closed") res = await put({ status: "closed" });
  expect(res.statusCode, res.body).toBe(200);
  return { ticket: res.json() as Ticket, from };
}

const post = (ticketId: number, payload: object, user = author) =>
  t.app.inject({ method: "POST", url: `/api/messages/${ticketId}`, headers: user.auth, payload });
const getTicket = async (id: number) =>
  (await t.app.inject({ method: "GET", url: `/api/tickets/${id}`, headers: admin.auth })).json() as Ticket;
const mentionsOf = async (user: TestUser) => {
  const res = await t.app.inject({ method: "GET", url: "/api/notes/mentions", headers: user.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    mentions: { id: number; messageId: number; ticketId: number; read: boolean; body: string }[];
    unreadCount: number;
  };
};

describe("private notes", () => {
  it("are stored for colleagues, never reach the customer, and leave the ticket as it was", async () => {
    const { ticket, from } = await ticketInQueue();
    const before = await getTicket(ticket.id);
    const res = await post(ticket.id, { body: "Customer is a VIP, be gentle", isNote: true });
    expect(res.statusCode, res.body).toBe(201);
    const note = res.json() as Message;
    expect(note).toMatchObject({ isNote: true, fromMe: true, body: "Customer is a VIP, be gentle", user: { id: author.id } });
    expect(await t.database.db.select().from(outbox).where(eq(outbox.messageId, note.id))).toEqual([]);

    // A real reply afterwards goes out; the note never does.
    expect((await post(ticket.id, { body: "Hi! How can I help?" })).statusCode).toBe(201);
    const received = await eventually(async () => {
      const list = await phoneReceived(t, admin, connectionId, from);
      expect(list.length).toBeGreaterThanOrEqual(1);
      return list;
    });
    expect(received.map((m) => m.body)).toEqual(["Hi! How can I help?"]);

    const history = await ticketMessages(t, colleague, ticket.id);
    const listed = history.messages.find((m) => m.id === note.id);
    expect(listed).toMatchObject({ isNote: true, user: { id: author.id, name: "Ana Author" } });
    expect(history.messages.filter((m) => m.id !== note.id).every((m) => m.isNote === false)).toBe(true);

    // Only the note on a fresh ticket: status, unread count, preview and list order untouched.
    const other = await ticketInQueue();
    const otherBefore = await getTicket(other.ticket.id);
    expect((await post(other.ticket.id, { body: "internal only", isNote: true })).statusCode).toBe(201);
    const otherAfter = await getTicket(other.ticket.id);
    expect(otherAfter).toMatchObject({
      status: otherBefore.status,
      unreadMessages: otherBefore.unreadMessages,
      lastMessage: otherBefore.lastMessage,
      updatedAt: otherBefore.updatedAt,
    });
    expect(before.lastMessage).toBe("hello, I need help");
  });

  it("may be written on pending and closed tickets, by anyone who may see the ticket, and no one else", async () => {
    const pending = await ticketInQueue("pending");
    const onPending = await post(pending.ticket.id, { body: "seen this one before", isNote: true }, colleague);
    expect(onPending.statusCode, onPending.body).toBe(201);
    expect((await getTicket(pending.ticket.id)).status).toBe("pending");

    const closed = await ticketInQueue("closed");
    expect((await post(closed.ticket.id, { body: "closed after refund", isNote: true })).statusCode).toBe(201);
    expect((await getTicket(closed.ticket.id)).status).toBe("closed");

    const refused = await post(pending.ticket.id, { body: "let me peek", isNote: true }, outsider);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe("ERR_NO_TICKET_FOUND");
    const unread = await t.app.inject({ method: "GET", url: `/api/messages/${pending.ticket.id}`, headers: outsider.auth });
    expect(unread.statusCode).toBe(404);
    expect((await post(pending.ticket.id, { body: "admin note", isNote: true }, admin)).statusCode).toBe(201);
  });

  it("refuses bad input with 400 and field paths", async () => {
    const { ticket } = await ticketInQueue();
    const cases: [object, string][] = [
      [{ body: "", isNote: true }, "body"],
      [{ body: "   ", isNote: true }, "body"],
      [{ body: "x".repeat(30001), isNote: true }, "body"],
      [{ body: "text", isNote: "true" }, "isNote"],
      [{ body: "text", isNote: 1 }, "isNote"],
      [{ body: "text", mentions: [colleague.id] }, "mentions"],
      [{ body: "text", isNote: true, mentions: ["2"] }, "mentions"],
      [{ body: "text", isNote: true, mentions: [2147483647] }, "mentions"],
    ];
    for (const [payload, field] of cases) {
      const res = await post(ticket.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().details[0].path[0], JSON.stringify(payload)).toBe(field);
    }
    const customerMessage = (await ticketMessages(t, author, ticket.id)).messages[0];
    const quoting = await post(ticket.id, { body: "text", isNote: true, quotedMsg: { id: customerMessage.id } });
    expect(quoting.statusCode).toBe(400);

    const form = multipart([
      { name: "body", value: "a note with a file" },
      { name: "isNote", value: "true" },
      { name: "medias", value: Buffer.from("%PDF-1.4 hello"), filename: "a.pdf", type: "application/pdf" },
    ]);
    const viaMultipart = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: { ...author.auth, ...form.headers },
      payload: form.payload,
    });
    expect(viaMultipart.statusCode).toBe(400);
    expect((await ticketMessages(t, author, ticket.id)).messages.some((m) => m.body === "a note with a file")).toBe(false);
  });

  it("is never quoted in a reply to the customer, and only its author or an admin deletes it", async () => {
    const { ticket } = await ticketInQueue();
    const note = (await post(ticket.id, { body: "secret discount code 4242", isNote: true })).json() as Message;
    const quoting = await post(ticket.id, { body: "see this", quotedMsg: { id: note.id } });
    expect(quoting.statusCode).toBe(400);
    expect(quoting.json().details[0].path).toEqual(["quotedMsg", "id"]);

    const byColleague = await t.app.inject({ method: "DELETE", url: `/api/messages/${note.id}`, headers: colleague.auth });
    expect(byColleague.statusCode).toBe(403);
    const byAuthor = await t.app.inject({ method: "DELETE", url: `/api/messages/${note.id}`, headers: author.auth });
    expect(byAuthor.statusCode, byAuthor.body).toBe(200);
    expect(byAuthor.json()).toMatchObject({ isDeleted: true, isNote: true });
    expect((await getTicket(ticket.id)).lastMessage).toBe("hello, I need help");
  });

  it("cannot be sent through the token API", async () => {
    const settings = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
    const token = settings.json().find((s: { key: string }) => s.key === "userApiToken").value;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}` },
      payload: { number: customerNumber(), body: "note?", isNote: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_VALIDATION");
  });

  it("are found by the ticket search", async () => {
    const { ticket } = await ticketInQueue();
    expect((await post(ticket.id, { body: "Escalated to zebrafinch team", isNote: true })).statusCode).toBe(201);
    const found = await listTickets(t, author, { showAll: "false", searchParam: "zebrafinch", status: "open" });
    expect(found.tickets.map((x) => x.id)).toContain(ticket.id);
    const hidden = await listTickets(t, outsider, { searchParam: "zebrafinch" });
    expect(hidden.tickets.map((x) => x.id)).not.toContain(ticket.id);
  });
});

describe("mentions in notes", () => {
  it("offers only colleagues who may see the ticket", async () => {
    const { ticket } = await ticketInQueue();
    const res = await t.app.inject({ method: "GET", url: `/api/notes/${ticket.id}/mentionable`, headers: author.auth });
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().users as { id: number }[]).map((u) => u.id);
    expect(ids).toContain(colleague.id);
    expect(ids).toContain(admin.id);
    expect(ids).not.toContain(outsider.id);
    expect(ids).not.toContain(author.id);
    const searched = await t.app.inject({
      method: "GET",
      url: `/api/notes/${ticket.id}/mentionable?searchParam=bruno`,
      headers: author.auth,
    });
    expect(searched.json().users).toEqual([{ id: colleague.id, name: "Bruno Colleague" }]);
    const blind = await t.app.inject({ method: "GET", url: `/api/notes/${ticket.id}/mentionable`, headers: outsider.auth });
    expect(blind.statusCode).toBe(404);
  });

  it("notify the mentioned colleague, who reads them; a colleague without access cannot be mentioned", async () => {
    const { ticket } = await ticketInQueue();
    const before = await mentionsOf(colleague);
    const res = await post(ticket.id, {
      body: "@Bruno Colleague can you check the invoice?",
      isNote: true,
      mentions: [colleague.id, colleague.id, author.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const note = res.json() as Message;
    const stored = await t.database.db.select().from(noteMentions).where(eq(noteMentions.messageId, note.id));
    expect(stored.map((m) => m.userId)).toEqual([colleague.id]);
    expect(note.mentions).toEqual([{ id: colleague.id, name: "Bruno Colleague" }]);
    const listed = (await ticketMessages(t, colleague, ticket.id)).messages;
    expect(listed.find((m) => m.id === note.id)?.mentions).toEqual([{ id: colleague.id, name: "Bruno Colleague" }]);
    expect(listed.filter((m) => !m.isNote).every((m) => m.mentions.length === 0)).toBe(true);

    const after = await mentionsOf(colleague);
    expect(after.unreadCount).toBe(before.unreadCount + 1);
    expect(after.mentions[0]).toMatchObject({ messageId: note.id, ticketId: ticket.id, read: false });
    expect((await mentionsOf(author)).mentions.some((m) => m.messageId === note.id)).toBe(false);

    const count = (await ticketMessages(t, author, ticket.id)).count;
    const blind = await post(ticket.id, { body: "@Otto look", isNote: true, mentions: [outsider.id] });
    expect(blind.statusCode).toBe(422);
    expect(blind.json()).toMatchObject({ error: "ERR_NOTE_MENTION_NO_ACCESS", details: [{ path: ["mentions", 0] }] });
    expect((await ticketMessages(t, author, ticket.id)).count).toBe(count);
    expect((await mentionsOf(outsider)).mentions).toEqual([]);

    const mentionId = after.mentions[0].id;
    const notTheirs = await t.app.inject({ method: "POST", url: `/api/notes/mentions/${mentionId}/read`, headers: author.auth });
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json().error).toBe("ERR_NO_MENTION_FOUND");
    const read = await t.app.inject({ method: "POST", url: `/api/notes/mentions/${mentionId}/read`, headers: colleague.auth });
    expect(read.statusCode).toBe(204);
    expect((await mentionsOf(colleague)).unreadCount).toBe(after.unreadCount - 1);
    const bad = await t.app.inject({ method: "POST", url: "/api/notes/mentions/abc/read", headers: colleague.auth });
    expect(bad.statusCode).toBe(400);

    const again = await post(ticket.id, { body: "ping again", isNote: true, mentions: [colleague.id] });
    expect(again.statusCode).toBe(201);
    const all = await t.app.inject({
      method: "POST",
      url: "/api/notes/mentions/read",
      headers: colleague.auth,
      payload: { ticketId: ticket.id },
    });
    expect(all.json()).toEqual({ updated: 1 });
    expect((await mentionsOf(colleague)).mentions.filter((m) => m.ticketId === ticket.id).every((m) => m.read)).toBe(true);
  });

  it("disappear from the list of a colleague who lost access to the ticket", async () => {
    const { ticket } = await ticketInQueue();
    const note = (await post(ticket.id, { body: "for Bruno", isNote: true, mentions: [colleague.id] })).json() as Message;
    expect((await mentionsOf(colleague)).mentions.some((m) => m.messageId === note.id)).toBe(true);
    const other = await makeQueue(t);
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: admin.auth,
      payload: { userId: admin.id, queueId: other.id },
    });
    expect((await mentionsOf(colleague)).mentions.some((m) => m.messageId === note.id)).toBe(false);
  });
});

describe("the notes API document", () => {
  it("describes the mention routes and the isNote field of messages", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/notes/{ticketId}/mentionable",
        "/api/notes/mentions",
        "/api/notes/mentions/{id}/read",
        "/api/notes/mentions/read",
      ]),
    );
    const message = doc.paths["/api/messages/{ticketId}"].post.responses["201"].content["application/json"].schema;
    expect(Object.keys(message.properties)).toEqual(expect.arrayContaining(["isNote", "mentions"]));
    expect(doc.paths["/api/messages/{ticketId}"].post.description).toContain("isNote");
  });
});
