import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
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
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  connectionId = (await makeSimulatorConnection(t, admin, { isDefault: true })).id;
});
afterAll(() => t.close());

async function pendingTicket(queueId?: number) {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "hello" });
  const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
    (x) => x.contact.number === from,
  )!;
  if (queueId) {
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: admin.auth,
      payload: { status: "pending", userId: null, queueId },
    });
  }
  return { ...ticket, from };
}

const put = (user: TestUser, id: number, payload: object) =>
  t.app.inject({ method: "PUT", url: `/api/tickets/${id}`, headers: user.auth, payload });

describe("ticket transitions", () => {
  it("accepts, returns, resolves, reopens and transfers exactly as the spec says", async () => {
    const queue = await makeQueue(t);
    const other = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const colleague = await makeUser(t, { queueIds: [queue.id] });
    const ticket = await pendingTicket(queue.id);

    const early = await put(agent, ticket.id, { status: "closed", userId: agent.id });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe("ERR_TICKET_TRANSITION");
    expect((await put(agent, ticket.id, { status: "open", userId: colleague.id })).json().error).toBe("ERR_NO_PERMISSION");
    const accepted = await put(agent, ticket.id, { status: "open", userId: agent.id });
    expect(accepted.json()).toMatchObject({ status: "open", userId: agent.id });
    expect((await put(agent, ticket.id, { status: "open", userId: agent.id })).json().error).toBe("ERR_TICKET_TRANSITION");

    const returned = await put(agent, ticket.id, { status: "pending", userId: null });
    expect(returned.json()).toMatchObject({ status: "pending", userId: null, queueId: queue.id });
    await put(agent, ticket.id, { status: "open", userId: agent.id });

    const toUser = await put(agent, ticket.id, { userId: colleague.id });
    expect(toUser.json()).toMatchObject({ status: "open", userId: colleague.id, queueId: queue.id });
    const toQueue = await put(colleague, ticket.id, { status: "pending", userId: null, queueId: other.id });
    expect(toQueue.json()).toMatchObject({ status: "pending", userId: null, queueId: other.id });
    // Now outside both agents' queues and unassigned: they lost it.
    expect((await put(agent, ticket.id, { status: "open", userId: agent.id })).json().error).toBe("ERR_NO_TICKET_FOUND");

    const both = await put(admin, ticket.id, { userId: agent.id, queueId: queue.id });
    expect(both.json()).toMatchObject({ userId: agent.id, queueId: queue.id, status: "pending" });
    await put(agent, ticket.id, { status: "open", userId: agent.id });
    const resolved = await put(agent, ticket.id, { status: "closed", userId: agent.id });
    expect(resolved.json().status).toBe("closed");
    expect((await put(agent, ticket.id, { userId: colleague.id })).statusCode).toBe(409);
    const reopened = await put(colleague, ticket.id, { status: "open", userId: colleague.id });
    expect(reopened.json()).toMatchObject({ status: "open", userId: colleague.id });

    expect((await put(admin, ticket.id, { userId: 999999 })).json().error).toBe("ERR_NO_USER_FOUND");
    expect((await put(admin, ticket.id, { status: "pending", userId: null, queueId: 999999 })).json().error).toBe(
      "ERR_NO_QUEUE_FOUND",
    );
    expect((await put(admin, ticket.id, {})).statusCode).toBe(409);
    expect((await put(admin, ticket.id, { status: "archived" })).json().details[0].path).toEqual(["status"]);
    expect((await put(admin, 999999, { userId: agent.id })).json().error).toBe("ERR_NO_TICKET_FOUND");
  });

  it("reopening refuses when the contact already has another active ticket", async () => {
    const agent = await makeUser(t);
    const ticket = await pendingTicket();
    await put(agent, ticket.id, { status: "open", userId: agent.id });
    await put(agent, ticket.id, { status: "closed", userId: agent.id });
    const contactId = ticket.contact.id;
    const fresh = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: agent.auth,
      payload: { contactId, userId: agent.id, status: "open" },
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const again = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: agent.auth,
      payload: { contactId, userId: agent.id, status: "open" },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("ERR_OTHER_OPEN_TICKET");
    const reopen = await put(agent, ticket.id, { status: "open", userId: agent.id });
    expect(reopen.json().error).toBe("ERR_OTHER_OPEN_TICKET");
  });

  it("creates tickets from a contact and validates the request", async () => {
    const agent = await makeUser(t);
    const contact = await makeContact(t);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: agent.auth,
      payload: { contactId: contact.id, userId: agent.id, status: "open" },
    });
    expect(created.json()).toMatchObject({ status: "open", userId: agent.id, contactId: contact.id, whatsappId: connectionId });
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: agent.auth,
      payload: { contactId: 999999 },
    });
    expect(missing.json().error).toBe("ERR_NO_CONTACT_FOUND");
    const invalid = await t.app.inject({ method: "POST", url: "/api/tickets", headers: agent.auth, payload: { contactId: "x" } });
    expect(invalid.json().details[0].path).toEqual(["contactId"]);
    const anonymous = await t.app.inject({ method: "POST", url: "/api/tickets", payload: { contactId: contact.id } });
    expect(anonymous.statusCode).toBe(401);
  });

  it("lists with filters: status, unread, date, queues, search and paging", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const ticket = await pendingTicket(queue.id);
    const mine = await listTickets(t, agent, { status: "pending", queueIds: JSON.stringify([queue.id]) });
    expect(mine.tickets.map((x) => x.id)).toContain(ticket.id);
    const unread = await listTickets(t, agent, { withUnreadMessages: "true" });
    expect(unread.tickets.every((x) => x.unreadMessages > 0)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect((await listTickets(t, admin, { showAll: "true", date: today })).tickets.map((x) => x.id)).toContain(ticket.id);
    expect((await listTickets(t, admin, { showAll: "true", date: "2001-01-01" })).tickets).toEqual([]);
    expect((await listTickets(t, admin, { searchParam: ticket.from.slice(-6) })).tickets.map((x) => x.id)).toContain(ticket.id);
    expect((await listTickets(t, admin, { searchParam: "HELLO" })).count).toBeGreaterThan(0);
    const bad = await t.app.inject({ method: "GET", url: "/api/tickets", headers: admin.auth, query: { queueIds: "[oops" } });
    expect(bad.json().details[0].path).toEqual(["queueIds"]);
    const page = await listTickets(t, admin, { showAll: "true", pageNumber: "1" });
    expect(page.tickets.length).toBeLessThanOrEqual(40);
    expect(page.hasMore).toBe(page.count > 40);
  });

  it("opening a ticket marks it read", async () => {
    const ticket = await pendingTicket();
    expect(ticket.unreadMessages).toBe(1);
    const opened = await t.app.inject({ method: "GET", url: `/api/tickets/${ticket.id}`, headers: admin.auth });
    expect(opened.json()).toMatchObject({ id: ticket.id, unreadMessages: 0, contact: { extraInfo: [] } });
    const history = await ticketMessages(t, admin, ticket.id);
    expect(history.messages.every((m) => m.read)).toBe(true);
  });

  it("deletes tickets for admins only", async () => {
    const ticket = await pendingTicket();
    const del = await t.app.inject({ method: "DELETE", url: `/api/tickets/${ticket.id}`, headers: admin.auth });
    expect(del.statusCode).toBe(200);
    const again = await t.app.inject({ method: "DELETE", url: `/api/tickets/${ticket.id}`, headers: admin.auth });
    expect(again.json().error).toBe("ERR_NO_TICKET_FOUND");
  });
});

describe("protocol", () => {
  it("sends the notice, calls the webhook, closes the ticket — and still closes when the webhook fails", async () => {
    const calls: unknown[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        calls.push(JSON.parse(body));
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/protocol`;
    try {
      // A loopback address is refused unless an admin allows private targets for this webhook.
      const refusedTarget = await t.app.inject({
        method: "PUT",
        url: "/api/settings/protocolWebhookUrl",
        headers: admin.auth,
        payload: { value: url },
      });
      expect(refusedTarget.statusCode).toBe(400);
      expect(refusedTarget.json().error).toBe("ERR_WEBHOOK_PRIVATE_TARGET");
      await setting("protocolWebhookAllowPrivate", "enabled");
      await setting("protocolWebhookUrl", url);
      const agent = await makeUser(t);
      const ticket = await pendingTicket();
      await put(agent, ticket.id, { status: "open", userId: agent.id });
      const res = await t.app.inject({ method: "POST", url: `/api/tickets/${ticket.id}/protocol`, headers: agent.auth });
      expect(res.statusCode, res.body).toBe(200);
      const { protocol, webhook, ticket: closed } = res.json();
      expect(protocol).toMatch(new RegExp(`^\\d{14}${ticket.id}$`));
      expect(webhook).toBe("sent");
      expect(closed.status).toBe("closed");
      expect(calls).toEqual([{ usuario: ticket.from, protocolo: protocol }]);
      await eventually(async () => {
        const received = await phoneReceived(t, admin, connectionId, ticket.from);
        expect(received.map((m) => m.body)).toContain(`Seu protocolo de atendimento é: nº ${protocol}`);
      });

      await t.app.inject({
        method: "PUT",
        url: "/api/settings/protocolWebhookUrl",
        headers: admin.auth,
        payload: { value: "http://127.0.0.1:1/down" },
      });
      const second = await pendingTicket();
      await put(agent, second.id, { status: "open", userId: agent.id });
      const failed = await t.app.inject({ method: "POST", url: `/api/tickets/${second.id}/protocol`, headers: agent.auth });
      expect(failed.json()).toMatchObject({ webhook: "failed", ticket: { status: "closed" } });
      const pending = await pendingTicket();
      const refused = await t.app.inject({ method: "POST", url: `/api/tickets/${pending.id}/protocol`, headers: agent.auth });
      expect(refused.statusCode).toBe(409);
    } finally {
      server.close();
      await setting("protocolWebhookUrl", "");
      await setting("protocolWebhookAllowPrivate", "disabled");
    }
  });

  it("never reaches a private address once private targets are disallowed again, and follows no redirect", async () => {
    const calls: string[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      calls.push(req.url ?? "");
      req.resume();
      if (req.url === "/moved") {
        res.writeHead(307, { location: "/elsewhere" }).end();
        return;
      }
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = await makeUser(t);
    const closeWithProtocol = async () => {
      const ticket = await pendingTicket();
      await put(agent, ticket.id, { status: "open", userId: agent.id });
      const res = await t.app.inject({ method: "POST", url: `/api/tickets/${ticket.id}/protocol`, headers: agent.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { webhook: string; ticket: { status: string } };
    };
    try {
      await setting("protocolWebhookAllowPrivate", "enabled");
      await setting("protocolWebhookUrl", `${base}/moved`);
      expect(await closeWithProtocol()).toMatchObject({ webhook: "failed", ticket: { status: "closed" } });
      expect(calls).toEqual(["/moved"]);

      // A name that resolves to loopback is checked at the call too (the socket is pinned to the checked address).
      await setting("protocolWebhookUrl", `${base.replace("127.0.0.1", "localhost")}/hook`);
      await setting("protocolWebhookAllowPrivate", "disabled");
      expect(await closeWithProtocol()).toMatchObject({ webhook: "failed", ticket: { status: "closed" } });
      expect(calls).toEqual(["/moved"]);
    } finally {
      server.close();
      await setting("protocolWebhookUrl", "");
      await setting("protocolWebhookAllowPrivate", "disabled");
    }
  });
});

async function setting(key: string, value: string) {
  const res = await t.app.inject({ method: "PUT", url: `/api/settings/${key}`, headers: admin.auth, payload: { value } });
  expect(res.statusCode, res.body).toBe(200);
}
