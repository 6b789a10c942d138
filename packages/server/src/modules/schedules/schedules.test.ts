import type { Connection, Schedule, Ticket } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  phoneReceived,
} from "../../../test/conversation.js";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { multipart } from "../../../test/multipart.js";

/** The sweeper runs on this clock: a schedule is due only when the test moves it past `sendAt`. */
const clock = manualClock(new Date(Date.now() + 60 * 60 * 1000));
const HOUR = 60 * 60 * 1000;
const inOneHour = () => new Date(clock.now().getTime() + HOUR).toISOString();

let t: TestApp;
let admin: TestUser;
let connection: Connection;

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 30 * 24 * 3600 });
  admin = await makeAdmin(t);
  connection = await makeSimulatorConnection(t, admin, { isDefault: true });
});
afterAll(() => t.close());

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who?: TestUser, payload?: object) =>
  t.app.inject({ method, url, headers: who?.auth, payload });

/** A customer wrote; the ticket is opened and given to `owner` (and to `queueId`, if any). */
async function openTicket(owner: TestUser, queueId: number | null = null) {
  const customer = customerNumber();
  await customerWrites(t, admin, connection.id, { from: customer, body: "hello" });
  const list = await call("GET", `/api/tickets?showAll=true&searchParam=${customer}`, admin);
  const ticket = (list.json() as { tickets: Ticket[] }).tickets[0];
  let opened = await call("PUT", `/api/tickets/${ticket.id}`, admin, { status: "open", userId: owner.id });
  expect(opened.statusCode, opened.body).toBe(200);
  if (queueId !== null) opened = await call("PUT", `/api/tickets/${ticket.id}`, admin, { queueId, userId: owner.id });
  expect(opened.statusCode, opened.body).toBe(200);
  return { customer, ticket: opened.json() as Ticket };
}

async function schedule(who: TestUser, payload: object) {
  const res = await call("POST", "/api/schedules", who, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Schedule;
}

const received = async (to: string) => (await phoneReceived(t, admin, connection.id, to)).map((m) => m.body);

describe("scheduled messages: rules", () => {
  it("validates the body, the time window and the target with field paths", async () => {
    const { ticket } = await openTicket(admin);
    const cases: [object, string[]][] = [
      [{ ticketId: ticket.id, body: "hi" }, ["sendAt"]],
      [{ ticketId: ticket.id, body: "hi", sendAt: "tomorrow" }, ["sendAt"]],
      [{ body: "hi", sendAt: inOneHour() }, ["ticketId"]],
      [{ ticketId: ticket.id, body: "x".repeat(30001), sendAt: inOneHour() }, ["body"]],
      [{ ticketId: "1", body: "hi", sendAt: inOneHour() }, ["ticketId"]],
      [{ ticketId: ticket.id, body: "   ", sendAt: inOneHour() }, ["body"]],
      [{ ticketId: ticket.id, body: "late", sendAt: new Date(clock.now().getTime() - 5 * 60_000).toISOString() }, ["sendAt"]],
      [{ ticketId: ticket.id, body: "far", sendAt: new Date(clock.now().getTime() + 400 * 24 * HOUR).toISOString() }, ["sendAt"]],
    ];
    for (const [payload, paths] of cases) {
      const res = await call("POST", "/api/schedules", admin, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().details.map((d: { path: string[] }) => d.path[0])).toEqual(paths);
    }
    // A little slack for the agent's clock.
    const now = await schedule(admin, {
      ticketId: ticket.id,
      body: "now",
      sendAt: new Date(clock.now().getTime() - 10_000).toISOString(),
    });
    expect(now.status).toBe("scheduled");
    expect((await call("POST", "/api/schedules", admin, { ticketId: 999999, body: "x", sendAt: inOneHour() })).json().error).toBe(
      "ERR_NO_TICKET_FOUND",
    );
    expect(
      (await call("POST", "/api/schedules", admin, { contactId: 999999, body: "x", sendAt: inOneHour() })).json().error,
    ).toBe("ERR_NO_CONTACT_FOUND");
    expect((await call("GET", "/api/schedules/999999", admin)).json().error).toBe("ERR_NO_SCHEDULE_FOUND");
    expect((await call("GET", "/api/schedules?status=whatever", admin)).statusCode).toBe(400);
    await call("DELETE", `/api/schedules/${now.id}`, admin);
  });

  it("answers { id, status: scheduled } with the schedule, and 401 without a session", async () => {
    const { ticket } = await openTicket(admin);
    const created = await schedule(admin, { ticketId: ticket.id, body: "Your order ships tomorrow", sendAt: inOneHour() });
    expect(created).toMatchObject({
      id: expect.any(Number),
      status: "scheduled",
      ticketId: ticket.id,
      contactId: ticket.contactId,
      body: "Your order ships tomorrow",
      user: { id: admin.id, name: admin.name },
      messageId: null,
    });
    for (const [method, url] of [
      ["GET", "/api/schedules"],
      ["POST", "/api/schedules"],
      ["PUT", `/api/schedules/${created.id}`],
      ["DELETE", `/api/schedules/${created.id}`],
    ] as const) {
      expect((await call(method, url, undefined, method === "PUT" || method === "POST" ? {} : undefined)).statusCode).toBe(401);
    }
    await call("DELETE", `/api/schedules/${created.id}`, admin);
  });

  it("lets whoever reaches the ticket schedule and see; only the author or an admin edits or cancels", async () => {
    const queue = await makeQueue(t);
    const other = await makeQueue(t);
    const author = await makeUser(t, { queueIds: [queue.id] });
    const colleague = await makeUser(t, { queueIds: [queue.id] });
    const outsider = await makeUser(t, { queueIds: [other.id] });
    const { ticket } = await openTicket(author, queue.id);

    expect(
      (await call("POST", "/api/schedules", outsider, { ticketId: ticket.id, body: "x", sendAt: inOneHour() })).statusCode,
    ).toBe(404);
    const mine = await schedule(author, { ticketId: ticket.id, body: "Follow-up", sendAt: inOneHour() });

    const seen = await call("GET", `/api/schedules?ticketId=${ticket.id}`, colleague);
    expect(seen.json().schedules.map((s: Schedule) => s.id)).toEqual([mine.id]);
    expect((await call("GET", `/api/schedules?ticketId=${ticket.id}`, outsider)).json()).toEqual({
      schedules: [],
      count: 0,
      hasMore: false,
    });
    expect((await call("GET", `/api/schedules/${mine.id}`, outsider)).statusCode).toBe(404);

    const notAuthor = await call("PUT", `/api/schedules/${mine.id}`, colleague, { body: "hijack" });
    expect(notAuthor.statusCode).toBe(403);
    expect(notAuthor.json().error).toBe("ERR_NO_PERMISSION");
    expect((await call("DELETE", `/api/schedules/${mine.id}`, colleague)).statusCode).toBe(403);
    expect((await call("PUT", `/api/schedules/${mine.id}`, outsider, { body: "x" })).statusCode).toBe(404);

    const later = new Date(clock.now().getTime() + 2 * HOUR).toISOString();
    const edited = await call("PUT", `/api/schedules/${mine.id}`, author, { body: "Follow-up (edited)", sendAt: later });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ body: "Follow-up (edited)", sendAt: later, status: "scheduled" });
    const byAdmin = await call("PUT", `/api/schedules/${mine.id}`, admin, { body: "Checked by the admin" });
    expect(byAdmin.statusCode).toBe(200);

    // Filters: by agent and by status.
    const byAgent = await call("GET", `/api/schedules?userId=${author.id}&status=scheduled`, admin);
    expect(byAgent.json().schedules.map((s: Schedule) => s.id)).toEqual([mine.id]);

    const cancelled = await call("DELETE", `/api/schedules/${mine.id}`, author);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe("cancelled");
    const again = await call("PUT", `/api/schedules/${mine.id}`, author, { body: "too late" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("ERR_SCHEDULE_NOT_EDITABLE");
    expect((await call("GET", `/api/schedules?userId=${author.id}&status=cancelled`, admin)).json().count).toBe(1);
  });

  it("shows an agent his own contact schedules, not a colleague's", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const contact = await makeContact(t);
    const own = await schedule(a, { contactId: contact.id, body: "Hi from A", sendAt: inOneHour() });
    expect(own).toMatchObject({ ticketId: null, contactId: contact.id, whatsappId: connection.id });
    expect((await call("GET", `/api/schedules?contactId=${contact.id}`, a)).json().count).toBe(1);
    expect((await call("GET", `/api/schedules?contactId=${contact.id}`, b)).json().count).toBe(0);
    expect((await call("GET", `/api/schedules?contactId=${contact.id}`, admin)).json().count).toBe(1);
    await call("DELETE", `/api/schedules/${own.id}`, a);
  });
  it("from a contact with an active ticket: in that ticket, refused when it is out of the agent's reach", async () => {
    const queue = await makeQueue(t);
    const member = await makeUser(t, { queueIds: [queue.id] });
    const outsider = await makeUser(t, { queueIds: [(await makeQueue(t)).id] });
    const { ticket } = await openTicket(member, queue.id);
    const inTicket = await schedule(member, { contactId: ticket.contactId, body: "In the open ticket", sendAt: inOneHour() });
    expect(inTicket.ticketId).toBe(ticket.id);
    const refused = await call("POST", "/api/schedules", outsider, {
      contactId: ticket.contactId,
      body: "x",
      sendAt: inOneHour(),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("ERR_OTHER_OPEN_TICKET");
    await call("DELETE", `/api/schedules/${inTicket.id}`, member);
  });

  it("replaces the attachment (multipart PUT) and removes it; a text-less one keeps needing a file", async () => {
    const { ticket } = await openTicket(admin);
    const empty = await call("POST", "/api/schedules", admin, { ticketId: ticket.id, body: "", sendAt: inOneHour() });
    expect(empty.statusCode).toBe(400);
    const withText = await schedule(admin, { ticketId: ticket.id, body: "price list", sendAt: inOneHour() });
    const form = multipart([
      { name: "body", value: "" },
      { name: "media", value: Buffer.from("%PDF-1.4\nprices"), filename: "prices.pdf", type: "application/pdf" },
    ]);
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/schedules/${withText.id}`,
      headers: { ...admin.auth, ...form.headers },
      payload: form.payload,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ body: "", mediaName: "prices.pdf" });
    const bare = await call("PUT", `/api/schedules/${withText.id}`, admin, { removeMedia: true });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().details).toEqual([{ path: ["body"], message: "Required" }]);
    const removed = await call("PUT", `/api/schedules/${withText.id}`, admin, { removeMedia: true, body: "text again" });
    expect(removed.json()).toMatchObject({ body: "text again", mediaName: null, mediaType: null });
    await call("DELETE", `/api/schedules/${withText.id}`, admin);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as { paths: Record<string, object> };
    expect(Object.keys(doc.paths["/api/schedules"])).toEqual(expect.arrayContaining(["get", "post"]));
    expect(Object.keys(doc.paths["/api/schedules/{id}"])).toEqual(expect.arrayContaining(["get", "put", "delete"]));
  });
});

describe("scheduled messages: sending", () => {
  it("is sent once when due, then is `sent` with its message and can no longer change", async () => {
    const { customer, ticket } = await openTicket(admin);
    const created = await schedule(admin, { ticketId: ticket.id, body: "Reminder: your appointment", sendAt: inOneHour() });
    expect(await t.services.schedules.sweep()).toBe(0);
    expect(await received(customer)).toEqual([]);

    clock.advance(HOUR + 1000);
    await t.services.schedules.sweep();
    await eventually(async () => expect(await received(customer)).toEqual(["Reminder: your appointment"]));
    const sent = (await call("GET", `/api/schedules/${created.id}`, admin)).json() as Schedule;
    expect(sent).toMatchObject({ status: "sent", messageId: expect.any(Number), error: null, sentAt: expect.any(String) });
    const history = await call("GET", `/api/messages/${ticket.id}`, admin);
    expect(history.json().messages.find((m: { id: number }) => m.id === sent.messageId)).toMatchObject({
      body: "Reminder: your appointment",
      fromMe: true,
    });

    await t.services.schedules.sweep();
    await t.outbox.drain();
    expect(await received(customer)).toHaveLength(1);
    const edit = await call("PUT", `/api/schedules/${created.id}`, admin, { body: "changed" });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error).toBe("ERR_SCHEDULE_NOT_EDITABLE");
    expect((await call("DELETE", `/api/schedules/${created.id}`, admin)).statusCode).toBe(409);
  });

  it("never sends a cancelled one", async () => {
    const { customer, ticket } = await openTicket(admin);
    const created = await schedule(admin, { ticketId: ticket.id, body: "never", sendAt: inOneHour() });
    await call("DELETE", `/api/schedules/${created.id}`, admin);
    clock.advance(HOUR + 1000);
    await t.services.schedules.sweep();
    await t.outbox.drain();
    expect(await received(customer)).toEqual([]);
    expect((await call("GET", `/api/schedules/${created.id}`, admin)).json().status).toBe("cancelled");
  });

  it("from a contact without a ticket: opens one for the author, as a new ticket from the contact does", async () => {
    const agent = await makeUser(t);
    const number = customerNumber();
    const contact = await makeContact(t, { number });
    const created = await schedule(agent, { contactId: contact.id, body: "We have news for you", sendAt: inOneHour() });
    clock.advance(HOUR + 1000);
    await t.services.schedules.sweep();
    await eventually(async () => expect(await received(number)).toEqual(["We have news for you"]));
    const sent = (await call("GET", `/api/schedules/${created.id}`, agent)).json() as Schedule;
    expect(sent.status).toBe("sent");
    const ticket = (await call("GET", `/api/tickets/${sent.ticketId}`, agent)).json() as Ticket;
    expect(ticket).toMatchObject({ contactId: contact.id, status: "open", userId: agent.id, whatsappId: connection.id });
  });

  it("sends an attachment stored at schedule time (multipart), caption and file", async () => {
    const { customer, ticket } = await openTicket(admin);
    const form = multipart([
      { name: "ticketId", value: String(ticket.id) },
      { name: "body", value: "the invoice" },
      { name: "sendAt", value: inOneHour() },
      { name: "media", value: Buffer.from("%PDF-1.4\ninvoice"), filename: "invoice.pdf", type: "application/pdf" },
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/schedules",
      headers: { ...admin.auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ mediaName: "invoice.pdf", mediaType: "document", body: "the invoice" });
    clock.advance(HOUR + 1000);
    await t.services.schedules.sweep();
    const phone = await eventually(async () => {
      const got = await phoneReceived(t, admin, connection.id, customer);
      expect(got).toHaveLength(1);
      return got;
    });
    expect(phone[0]).toMatchObject({ body: "the invoice", media: { filename: "invoice.pdf", mimetype: "application/pdf" } });
  });
});
