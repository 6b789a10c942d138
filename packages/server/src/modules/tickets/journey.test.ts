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
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
const clock = manualClock();

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

describe("the conversation journey through the simulator", () => {
  it("menu → queue → accept → reply → ack → resolve with farewell → writes again inside and outside the window", async () => {
    const sales = await makeQueue(t, { name: "Sales", greetingMessage: "Sales here, {{name}}!" });
    const support = await makeQueue(t, { name: "Support" });
    const agentA = await makeUser(t, { queueIds: [sales.id] });
    const agentB = await makeUser(t, { queueIds: [support.id] });
    const connection = await makeSimulatorConnection(t, admin, {
      queueIds: [sales.id, support.id],
      greetingMessage: "Welcome! Choose a queue:",
      farewellMessage: "Thanks for talking to us.",
    });
    const customer = customerNumber();

    await customerWrites(t, admin, connection.id, { from: customer, name: "Maria", body: "Oi" });
    const menu = await eventually(async () => {
      const received = await phoneReceived(t, admin, connection.id, customer);
      expect(received).toHaveLength(1);
      return received[0];
    });
    expect(menu.body).toBe("Welcome! Choose a queue:\n*1* - Sales\n*2* - Support");

    await customerWrites(t, admin, connection.id, { from: customer, body: "1" });
    const greeting = await eventually(async () => {
      const received = await phoneReceived(t, admin, connection.id, customer);
      expect(received).toHaveLength(2);
      return received[1];
    });
    expect(greeting.body).toBe("Sales here, Maria!");

    const pendingForA = await listTickets(t, agentA, { status: "pending" });
    const ticket = pendingForA.tickets.find((x) => x.contact.number === customer);
    // The menu's answer is no preview (issue 20): what the customer wrote before stays.
    expect(ticket).toMatchObject({ status: "pending", queueId: sales.id, unreadMessages: 2, lastMessage: "Oi" });
    expect(ticket?.contact.name).toBe("Maria");
    const pendingForB = await listTickets(t, agentB, { status: "pending" });
    expect(pendingForB.tickets.find((x) => x.id === ticket?.id)).toBeUndefined();
    const peek = await t.app.inject({ method: "GET", url: `/api/tickets/${ticket!.id}`, headers: agentB.auth });
    expect(peek.statusCode).toBe(404);

    const accepted = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket!.id}`,
      headers: agentA.auth,
      payload: { status: "open", userId: agentA.id },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: "open", userId: agentA.id, user: { id: agentA.id } });

    const opened = await t.app.inject({ method: "GET", url: `/api/tickets/${ticket!.id}`, headers: agentA.auth });
    expect(opened.json().unreadMessages).toBe(0);

    const sent = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket!.id}`,
      headers: agentA.auth,
      payload: { body: "How can I help?" },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ body: "How can I help?", fromMe: true, ack: 0 });
    const reply = await eventually(async () => {
      const received = await phoneReceived(t, admin, connection.id, customer);
      expect(received).toHaveLength(3);
      return received[2];
    });
    expect(reply.body).toBe("How can I help?");

    const ack = await t.app.inject({
      method: "POST",
      url: `/api/simulator/${connection.id}/ack`,
      headers: admin.auth,
      payload: { id: reply.wid, ack: 3 },
    });
    expect(ack.statusCode, ack.body).toBe(200);
    const history = await ticketMessages(t, agentA, ticket!.id);
    expect(history.messages.find((m) => m.id === sent.json().id)?.ack).toBe(3);

    const resolved = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket!.id}`,
      headers: agentA.auth,
      payload: { status: "closed", userId: agentA.id },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().status).toBe("closed");
    await eventually(async () => {
      const received = await phoneReceived(t, admin, connection.id, customer);
      expect(received.at(-1)?.body).toBe("Thanks for talking to us.");
    });
    const afterClose = await ticketMessages(t, agentA, ticket!.id);
    expect(afterClose.messages.at(-1)).toMatchObject({
      body: "Thanks for talking to us.",
      fromMe: true,
      fromBot: true,
      automation: "system",
    });

    // Inside the window (default 2 h): the same ticket comes back, pending and unassigned.
    await customerWrites(t, admin, connection.id, { from: customer, body: "One more thing" });
    const again = await listTickets(t, agentA, { status: "pending" });
    const reused = again.tickets.find((x) => x.contact.number === customer);
    expect(reused).toMatchObject({ id: ticket!.id, status: "pending", userId: null });

    // Close it, then three hours later: a new ticket.
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket!.id}`,
      headers: agentA.auth,
      payload: { status: "open", userId: agentA.id },
    });
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket!.id}`,
      headers: agentA.auth,
      payload: { status: "closed", userId: agentA.id },
    });
    clock.advance(3 * 60 * 60 * 1000);
    // Access tokens follow the same clock: sign a fresh one for the admin.
    const token = await t.services.tokens.signAccess(admin.id);
    const later3h = { ...admin, token, auth: { authorization: `Bearer ${token}` } };
    await customerWrites(t, later3h, connection.id, { from: customer, body: "Hello again" });
    const later = await listTickets(t, later3h, { status: "pending", showAll: "true" });
    const fresh = later.tickets.find((x) => x.contact.number === customer);
    expect(fresh).toBeDefined();
    expect(fresh!.id).not.toBe(ticket!.id);
  });
});
