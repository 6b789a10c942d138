import type { Ticket } from "@zapdesk/core";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, flush, listen, type RecordingSocket, ticketEvents } from "../../../test/sockets.js";

// Issue 13 item 1: a ticket at the greeting menu ("choosing a queue") reaches admins, and agents only
// when the setting showChoosingQueue is enabled: in the list, its count, search and realtime events.
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let url: string;
let connectionId: number;
let sales: { id: number };
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  url = await listen(t);
  sales = await makeQueue(t, { name: "Choosing Sales" });
  const support = await makeQueue(t, { name: "Choosing Support" });
  agent = await makeUser(t, { queueIds: [sales.id] });
  const connection = await makeSimulatorConnection(t, admin, { queueIds: [sales.id, support.id], greetingMessage: "Pick one:" });
  connectionId = connection.id;
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

async function setShowChoosing(value: string, who: TestUser = admin) {
  return t.app.inject({ method: "PUT", url: "/api/settings/showChoosingQueue", headers: who.auth, payload: { value } });
}

async function choosingTicket(): Promise<{ ticket: Ticket; from: string }> {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "hello" });
  const ticket = await eventually(async () => {
    const { tickets } = await listTickets(t, admin, { status: "pending", showAll: "true" });
    const found = (tickets as Ticket[]).find((x) => x.contact.number === from);
    expect(found).toBeDefined();
    return found!;
  });
  return { ticket, from };
}

const ids = (list: { tickets: Ticket[] }) => list.tickets.map((x) => x.id);
const updates = (socket: RecordingSocket, ticketId: number) =>
  ticketEvents(socket, ticketId).filter((e) => e.action === "update");

describe("tickets choosing a queue", () => {
  it("are the admins' only by default: list, count, search and live events", async () => {
    const sockets = { agent: await connectAs(url, agent, opened), admin: await connectAs(url, admin, opened) };
    const { ticket, from } = await choosingTicket();
    expect(ticket.choosingQueue).toBe(true);
    expect(ticket.queueId).toBeNull();

    const adminList = await listTickets(t, admin, { status: "pending" });
    expect(ids(adminList)).toContain(ticket.id);
    const agentList = await listTickets(t, agent, { status: "pending" });
    expect(ids(agentList)).not.toContain(ticket.id);
    expect(agentList.count).toBe(agentList.tickets.length);
    expect(ids(await listTickets(t, agent, { searchParam: from.slice(-6) }))).not.toContain(ticket.id);

    await flush(t, admin, Object.values(sockets));
    expect(updates(sockets.admin, ticket.id).length).toBeGreaterThan(0);
    expect(ticketEvents(sockets.agent, ticket.id)).toEqual([]);

    // Direct access is unchanged (documented): a link to it still opens, as any ticket without a queue.
    const open = await t.app.inject({ method: "GET", url: `/api/tickets/${ticket.id}`, headers: agent.auth });
    expect(open.statusCode).toBe(200);
  });

  it("reach the queue's agents once the customer picks a queue", async () => {
    const socket = await connectAs(url, agent, opened);
    const { ticket, from } = await choosingTicket();
    await customerWrites(t, admin, connectionId, { from, body: "1" });
    await eventually(async () => expect(ids(await listTickets(t, agent, { status: "pending" }))).toContain(ticket.id));
    const listed = (await listTickets(t, agent, { status: "pending" })).tickets.find((x: Ticket) => x.id === ticket.id);
    expect(listed).toMatchObject({ queueId: sales.id, choosingQueue: false });
    await eventually(() => expect(updates(socket, ticket.id).at(-1)).toMatchObject({ ticket: { queueId: sales.id } }));
  });

  it("reach agents when an admin enables the setting, live for sockets already connected", async () => {
    const socket = await connectAs(url, agent, opened);
    const before = await choosingTicket();
    const res = await setShowChoosing("enabled");
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(await listTickets(t, agent, { status: "pending" }))).toContain(before.ticket.id);

    const { ticket } = await choosingTicket();
    await eventually(() => expect(updates(socket, ticket.id).length).toBeGreaterThan(0));
    expect(updates(socket, ticket.id).at(-1)).toMatchObject({ ticket: { choosingQueue: true } });

    // Disabled again: the connected agent stops hearing of them.
    expect((await setShowChoosing("disabled")).statusCode).toBe(200);
    const hidden = await choosingTicket();
    await flush(t, admin, [socket]);
    expect(ticketEvents(socket, hidden.ticket.id)).toEqual([]);
    expect(ids(await listTickets(t, agent, { status: "pending" }))).not.toContain(hidden.ticket.id);
  });

  it("setting: admins only, enabled or disabled, public so the web knows", async () => {
    expect((await setShowChoosing("enabled", agent)).statusCode).toBe(403);
    const bad = await setShowChoosing("sometimes");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("ERR_VALIDATION");
    const publicSettings = await t.app.inject({ method: "GET", url: "/api/public-settings" });
    expect(publicSettings.json()).toContainEqual({ key: "showChoosingQueue", value: "disabled" });
  });
});
