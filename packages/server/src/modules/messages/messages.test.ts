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
import { makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { multipart } from "../../../test/multipart.js";

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  agent = await makeUser(t);
  connectionId = (await makeSimulatorConnection(t, admin, { isDefault: true })).id;
});
afterAll(() => t.close());

async function openTicket() {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "hi there" });
  const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
    (x) => x.contact.number === from,
  )!;
  await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticket.id}`,
    headers: agent.auth,
    payload: { status: "open", userId: agent.id },
  });
  return { ticket, from };
}

const send = (ticketId: number, payload: object, user = agent) =>
  t.app.inject({ method: "POST", url: `/api/messages/${ticketId}`, headers: user.auth, payload });

describe("messages", () => {
  it("sends text, quoted replies and voice notes, newest page first in chronological order", async () => {
    const { ticket, from } = await openTicket();
    const history = await ticketMessages(t, agent, ticket.id);
    const customerMessage = history.messages[0];
    const reply = await send(ticket.id, { body: "Quoting you", quotedMsg: { id: customerMessage.id } });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json()).toMatchObject({ quotedMsg: { id: customerMessage.id, body: "hi there" }, user: { id: agent.id } });

    const ogg = Buffer.concat([Buffer.from("OggS"), Buffer.alloc(12000, 1)]);
    const voice = multipart([
      { name: "isVoice", value: "true" },
      { name: "medias", value: ogg, filename: "audio.ogg", type: "audio/ogg" },
    ]);
    const sentVoice = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: { ...agent.auth, ...voice.headers },
      payload: voice.payload,
    });
    expect(sentVoice.statusCode, sentVoice.body).toBe(201);
    expect(sentVoice.json()).toMatchObject({ mediaType: "audio", mediaName: "audio.ogg" });

    const received = await eventually(async () => {
      const list = await phoneReceived(t, admin, connectionId, from);
      expect(list).toHaveLength(2);
      return list;
    });
    expect(received[0]).toMatchObject({ body: "Quoting you" });
    expect(received[1].media).toMatchObject({ mimetype: "audio/ogg" });

    for (let i = 0; i < 21; i++) await send(ticket.id, { body: `bulk ${i}` });
    const page1 = await ticketMessages(t, agent, ticket.id, 1);
    const page2 = await ticketMessages(t, agent, ticket.id, 2);
    expect(page1.messages).toHaveLength(20);
    expect(page1.messages.at(-1)?.body).toBe("bulk 20");
    expect(page1.hasMore).toBe(true);
    expect(page2.messages[0].body).toBe("hi there");
    expect(page2.hasMore).toBe(false);
    const times = page1.messages.map((m) => m.createdAt);
    expect([...times].sort()).toEqual(times);
  });

  it("refuses empty, whitespace, oversize and foreign-quote sends, and sends on a ticket that is not open", async () => {
    const { ticket } = await openTicket();
    const other = await openTicket();
    const otherMessage = (await ticketMessages(t, agent, other.ticket.id)).messages[0];
    expect((await send(ticket.id, { body: "   " })).json().details[0]).toEqual({ path: ["body"], message: "Required" });
    expect((await send(ticket.id, {})).json().details[0].path).toEqual(["body"]);
    expect((await send(ticket.id, { body: "x".repeat(30001) })).json().details[0].message).toBe("Too Long!");
    expect((await send(ticket.id, { body: "hi", quotedMsg: { id: otherMessage.id } })).json().details[0].path).toEqual([
      "quotedMsg",
      "id",
    ]);
    expect((await send(ticket.id, { body: "hi", extra: 1 })).statusCode).toBe(400);
    const tooMany = multipart(
      Array.from({ length: 6 }, (_, i) => ({
        name: "medias",
        value: Buffer.from(`%PDF-${i}`),
        filename: `f${i}.pdf`,
        type: "application/pdf",
      })),
    );
    const files = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: { ...agent.auth, ...tooMany.headers },
      payload: tooMany.payload,
    });
    expect(files.statusCode).toBeGreaterThanOrEqual(400);
    expect(files.statusCode).toBeLessThan(500);
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: agent.auth,
      payload: { status: "closed", userId: agent.id },
    });
    const closed = await send(ticket.id, { body: "still there?" });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({
      error: "ERR_TICKET_NOT_OPEN",
      message: "Reopen or accept this ticket to send a message.",
    });
  });

  it("deletes own messages for everyone, never the customer's", async () => {
    const { ticket, from } = await openTicket();
    const sent = (await send(ticket.id, { body: "oops" })).json();
    await eventually(async () => expect(await phoneReceived(t, admin, connectionId, from)).toHaveLength(1));
    const removed = await t.app.inject({ method: "DELETE", url: `/api/messages/${sent.id}`, headers: agent.auth });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().isDeleted).toBe(true);
    expect((await phoneReceived(t, admin, connectionId, from))[0].deleted).toBe(true);

    const customer = (await ticketMessages(t, agent, ticket.id)).messages.find((m) => !m.fromMe)!;
    const refused = await t.app.inject({ method: "DELETE", url: `/api/messages/${customer.id}`, headers: agent.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("ERR_NO_PERMISSION");
    const missing = await t.app.inject({ method: "DELETE", url: "/api/messages/999999", headers: agent.auth });
    expect(missing.json().error).toBe("ERR_NO_MESSAGE_FOUND");

    await t.app.inject({ method: "POST", url: `/api/simulator/${connectionId}/disconnect`, headers: admin.auth });
    const another = (await send(ticket.id, { body: "queued while offline" })).json();
    const unsent = await t.app.inject({ method: "DELETE", url: `/api/messages/${another.id}`, headers: agent.auth });
    expect(unsent.json().isDeleted).toBe(true);
    await eventually(async () => {
      const c = await t.app.inject({ method: "GET", url: `/api/whatsapp/${connectionId}`, headers: admin.auth });
      expect(c.json().status).toBe("CONNECTED");
    });
    await t.outbox.drain();
    // Either it never left (deleted from the outbox) or it was revoked on the phone: never visible there.
    const copies = (await phoneReceived(t, admin, connectionId, from)).filter((m) => m.body === "queued while offline");
    expect(copies.every((m) => m.deleted)).toBe(true);
  });
});

describe("token API, vCard contacts and import", () => {
  it("sends through POST /messages/send with the API token only", async () => {
    const settings = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
    const token = settings.json().find((s: { key: string }) => s.key === "userApiToken").value;
    const to = customerNumber();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}` },
      payload: { number: `+${to}`, body: "Your order shipped" },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ message: { body: "Your order shipped", fromMe: true }, ticketId: expect.any(Number) });
    await eventually(async () =>
      expect((await phoneReceived(t, admin, connectionId, to)).map((m) => m.body)).toEqual(["Your order shipped"]),
    );

    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: "Bearer nope" },
      payload: { number: to, body: "x" },
    });
    expect(wrong.statusCode).toBe(403);
    const jwt = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: admin.auth,
      payload: { number: to, body: "x" },
    });
    expect(jwt.statusCode).toBe(403);
    const none = await t.app.inject({ method: "POST", url: "/api/messages/send", payload: { number: to, body: "x" } });
    expect(none.statusCode).toBe(401);
    const invalid = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}` },
      payload: { number: "12", body: "x" },
    });
    expect(invalid.json().details[0].path).toEqual(["number"]);
    const notWhatsApp = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}` },
      payload: { number: "1234567890123456789", body: "x" },
    });
    expect(notWhatsApp.json().error).toBe("ERR_WAPP_INVALID_CONTACT");
  });

  it("resolves a shared contact and imports the phone's contacts", async () => {
    const number = customerNumber();
    const resolved = await t.app.inject({
      method: "POST",
      url: "/api/contact",
      headers: agent.auth,
      payload: { name: "Shared", number: `+${number}` },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ name: "Shared", number });
    const same = await t.app.inject({
      method: "POST",
      url: "/api/contact",
      headers: agent.auth,
      payload: { name: "Other name", number },
    });
    expect(same.json().id).toBe(resolved.json().id);

    const writer = customerNumber();
    await customerWrites(t, admin, connectionId, { from: writer, name: "Phone Person", body: "hi" });
    expect((await t.app.inject({ method: "POST", url: "/api/contacts/import", headers: agent.auth })).statusCode).toBe(403);
    const imported = await t.app.inject({ method: "POST", url: "/api/contacts/import", headers: admin.auth });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().total).toBeGreaterThan(0);
  });
});
