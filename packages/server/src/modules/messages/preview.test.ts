import type { AddressInfo } from "node:net";
import { CONTACT_PREVIEW_MARK, LOCATION_PREVIEW_MARK, type RealtimePayloads, type Ticket } from "@zapdesk/core";
import { io as connectClient, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  phoneReceived,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let socket: Socket;
const ticketEvents: RealtimePayloads["ticket"][] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  socket = connectClient(url, { auth: { token: admin.token }, transports: ["websocket"], reconnection: false, forceNew: true });
  socket.on("ticket", (event: RealtimePayloads["ticket"]) => ticketEvents.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
});
afterAll(async () => {
  socket.disconnect();
  await t.close();
});

async function ticketOf(number: string): Promise<Ticket> {
  const all = [
    ...(await listTickets(t, admin, { status: "pending", showAll: "true" })).tickets,
    ...(await listTickets(t, admin, { status: "open", showAll: "true" })).tickets,
    ...(await listTickets(t, admin, { status: "closed", showAll: "true" })).tickets,
  ];
  const ticket = all.find((x) => x.contact.number === number);
  if (!ticket) throw new Error(`no ticket for ${number}`);
  return ticket;
}

async function simulate(connectionId: number, path: "revoke" | "edit", payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: "POST", url: `/api/simulator/${connectionId}/${path}`, headers: admin.auth, payload });
  expect(res.statusCode, res.body).toBe(200);
}

type TicketUpdate = Extract<RealtimePayloads["ticket"], { action: "update" }>;
const updatesOf = (ticketId: number, events = ticketEvents) =>
  events.filter((e): e is TicketUpdate => e.action === "update" && e.ticket.id === ticketId);

/** The preview a `ticket` update event carried last for that ticket. */
const announcedPreview = (ticketId: number) => updatesOf(ticketId).at(-1)?.ticket.lastMessage;

describe("ticket previews (issue 12 item 19)", () => {
  it("keep what the customer wrote when the queue menu and the chosen queue's greeting go out", async () => {
    const sales = await makeQueue(t, { name: "Sales", greetingMessage: "Sales here, {{name}}!" });
    const support = await makeQueue(t, { name: "Support" });
    const connection = await makeSimulatorConnection(t, admin, {
      queueIds: [sales.id, support.id],
      greetingMessage: "Welcome! Choose a queue:",
    });
    const customer = customerNumber();
    await customerWrites(t, admin, connection.id, { from: customer, name: "Maria", body: "Oi, preciso de ajuda" });
    await eventually(async () => expect(await phoneReceived(t, admin, connection.id, customer)).toHaveLength(1));
    expect((await ticketOf(customer)).lastMessage).toBe("Oi, preciso de ajuda");

    // Issue 20 §2.3: the answer that picks a queue is no preview; what the customer wrote stays.
    await customerWrites(t, admin, connection.id, { from: customer, body: "1" });
    await eventually(async () => expect(await phoneReceived(t, admin, connection.id, customer)).toHaveLength(2));
    const ticket = await ticketOf(customer);
    expect(ticket.queue?.id).toBe(sales.id);
    expect(ticket.lastMessage).toBe("Oi, preciso de ajuda");
    await eventually(() => expect(announcedPreview(ticket.id)).toBe("Oi, preciso de ajuda"));

    // What the customer writes next is the preview again.
    await customerWrites(t, admin, connection.id, { from: customer, body: "2" });
    expect((await ticketOf(customer)).lastMessage).toBe("2");
  });

  it("name a shared contact and a location instead of showing their raw bodies (issue 20 §2.2)", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const customer = customerNumber();
    const vcard =
      "BEGIN:VCARD\nVERSION:3.0\nN:Souza;Ana;;;\nFN:Ana Souza\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD";
    await customerWrites(t, admin, connection.id, { from: customer, vcard });
    const { id } = await ticketOf(customer);
    expect((await ticketOf(customer)).lastMessage).toBe(`${CONTACT_PREVIEW_MARK}Ana Souza`);
    await eventually(() => expect(announcedPreview(id)).toBe(`${CONTACT_PREVIEW_MARK}Ana Souza`));

    const located = await customerWrites(t, admin, connection.id, {
      from: customer,
      location: { latitude: -23.55, longitude: -46.63, description: "Avenida Paulista, 1000\nSão Paulo" },
    });
    expect((await ticketOf(customer)).lastMessage).toBe(`${LOCATION_PREVIEW_MARK}Avenida Paulista, 1000`);

    // A preview recomputed (the location revoked) names the contact the same way.
    await simulate(connection.id, "revoke", { id: located });
    expect((await ticketOf(customer)).lastMessage).toBe(`${CONTACT_PREVIEW_MARK}Ana Souza`);
  });

  it("keep the agent's last reply when the farewell and the protocol notice go out", async () => {
    const connection = await makeSimulatorConnection(t, admin, { farewellMessage: "Thanks for talking to us." });
    const customer = customerNumber();
    await customerWrites(t, admin, connection.id, { from: customer, body: "hello" });
    const { id } = await ticketOf(customer);
    const accept = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${id}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(accept.statusCode, accept.body).toBe(200);
    const reply = await t.app.inject({
      method: "POST",
      url: `/api/messages/${id}`,
      headers: admin.auth,
      payload: { body: "Done!" },
    });
    expect(reply.statusCode, reply.body).toBe(201);

    const protocol = await t.app.inject({ method: "POST", url: `/api/tickets/${id}/protocol`, headers: admin.auth });
    expect(protocol.statusCode, protocol.body).toBe(200);
    await eventually(async () => {
      const bodies = (await phoneReceived(t, admin, connection.id, customer)).map((m) => m.body);
      expect(bodies).toEqual(["Done!", expect.stringContaining("protocolo"), "Thanks for talking to us."]);
    });
    expect(await ticketOf(customer)).toMatchObject({ status: "closed", lastMessage: "Done!" });
  });

  it("drop a message the customer deleted: the previous one shows, and the ticket event says so", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const customer = customerNumber();
    const first = await customerWrites(t, admin, connection.id, { from: customer, body: "first words" });
    const second = await customerWrites(t, admin, connection.id, { from: customer, body: "my card number is 1234" });
    const { id, updatedAt } = await ticketOf(customer);

    await simulate(connection.id, "revoke", { id: second });
    expect(await ticketOf(customer)).toMatchObject({ lastMessage: "first words", updatedAt });
    await eventually(() => expect(announcedPreview(id)).toBe("first words"));

    await simulate(connection.id, "revoke", { id: first });
    expect((await ticketOf(customer)).lastMessage).toBe("");
    await eventually(() => expect(announcedPreview(id)).toBe(""));
  });

  it("drop a reply the agent deleted for everyone", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const customer = customerNumber();
    await customerWrites(t, admin, connection.id, { from: customer, body: "can you help?" });
    const { id } = await ticketOf(customer);
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${id}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    const sent = await t.app.inject({
      method: "POST",
      url: `/api/messages/${id}`,
      headers: admin.auth,
      payload: { body: "wrong chat!" },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const reply = sent.json() as { id: number };
    const removed = await t.app.inject({ method: "DELETE", url: `/api/messages/${reply.id}`, headers: admin.auth });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await ticketOf(customer)).lastMessage).toBe("can you help?");
    await eventually(() => expect(announcedPreview(id)).toBe("can you help?"));
  });

  it("follow an edit of the newest message, and ignore changes to older ones", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const customer = customerNumber();
    const older = await customerWrites(t, admin, connection.id, { from: customer, body: "older" });
    const newest = await customerWrites(t, admin, connection.id, { from: customer, body: "newset" });
    await simulate(connection.id, "edit", { id: newest, body: "newest" });
    expect((await ticketOf(customer)).lastMessage).toBe("newest");

    const { id } = await ticketOf(customer);
    await eventually(() => expect(announcedPreview(id)).toBe("newest"));

    const before = ticketEvents.length;
    await simulate(connection.id, "revoke", { id: older });
    expect((await ticketOf(customer)).lastMessage).toBe("newest");
    // Events arrive in order: once the next message's event is here, a revoke event would have been too.
    await customerWrites(t, admin, connection.id, { from: customer, body: "later" });
    await eventually(() => expect(announcedPreview(id)).toBe("later"));
    expect(updatesOf(id, ticketEvents.slice(before)).map((e) => e.ticket.lastMessage)).toEqual(["later"]);
  });
});
