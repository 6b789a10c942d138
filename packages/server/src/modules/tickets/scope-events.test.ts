import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, flush, listen, type RecordingSocket, ticketEvents } from "../../../test/sockets.js";

// Issue 12 item 14: whoever could see a ticket before a change and cannot after is told to drop it, live.
let t: TestApp;
let admin: TestUser;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

const REMOVED = (ticketId: number) => ({ action: "delete", ticketId, reason: "moved" });
const removals = (socket: RecordingSocket, ticketId: number) =>
  ticketEvents(socket, ticketId).filter((e) => e.action === "delete");
const updates = (socket: RecordingSocket, ticketId: number) =>
  ticketEvents(socket, ticketId).filter((e) => e.action === "update");

async function ticketOf(from: string, status = "pending") {
  const { tickets } = await listTickets(t, admin, { showAll: "true", status });
  const ticket = tickets.find((x) => x.contact.number === from);
  expect(ticket, `ticket of ${from}`).toBeDefined();
  return ticket!;
}

async function putSetting(url: string, payload: object) {
  const res = await t.app.inject({ method: "PUT", url, headers: admin.auth, payload });
  expect(res.statusCode, res.body).toBe(200);
}

async function put(ticketId: number, payload: object, who: TestUser = admin) {
  const res = await t.app.inject({ method: "PUT", url: `/api/tickets/${ticketId}`, headers: who.auth, payload });
  expect(res.statusCode, res.body).toBe(200);
}

describe("a ticket leaving an agent's scope", () => {
  it("is removed live from everyone outside the queue the customer picks in the greeting menu", async () => {
    const sales = await makeQueue(t, { name: "Sales" });
    const support = await makeQueue(t, { name: "Support" });
    const connection = await makeSimulatorConnection(t, admin, {
      queueIds: [sales.id, support.id],
      greetingMessage: "Hello! Pick one:",
    });
    const salesAgent = await makeUser(t, { queueIds: [sales.id] });
    const supportAgent = await makeUser(t, { queueIds: [support.id] });
    const noQueueAgent = await makeUser(t);
    // Issue 13: agents hear of tickets at the greeting menu only with this setting (routing tests cover it off).
    await putSetting("/api/settings/showChoosingQueue", { value: "enabled" });
    const sockets = {
      sales: await connectAs(url, salesAgent, opened),
      support: await connectAs(url, supportAgent, opened),
      none: await connectAs(url, noQueueAgent, opened),
      admin: await connectAs(url, admin, opened),
    };

    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "hi" });
    const ticket = await ticketOf(from);
    expect(ticket.queueId).toBeNull();
    // Without a queue yet, the ticket is everyone's "Sem fila" row.
    await eventually(() => {
      for (const socket of Object.values(sockets)) expect(updates(socket, ticket.id).length).toBeGreaterThan(0);
    });

    await customerWrites(t, admin, connection.id, { from, body: "2" });
    await eventually(async () => expect((await ticketOf(from)).queueId).toBe(support.id));
    await flush(t, admin, Object.values(sockets));

    expect(removals(sockets.sales, ticket.id)).toEqual([REMOVED(ticket.id)]);
    expect(removals(sockets.none, ticket.id)).toEqual([REMOVED(ticket.id)]);
    expect(removals(sockets.support, ticket.id)).toEqual([]);
    expect(removals(sockets.admin, ticket.id)).toEqual([]);
    expect(updates(sockets.support, ticket.id).at(-1)).toMatchObject({ ticket: { queueId: support.id } });
    expect((await listTickets(t, salesAgent, { status: "pending" })).tickets.map((x) => x.id)).not.toContain(ticket.id);
    await putSetting("/api/settings/showChoosingQueue", { value: "disabled" });
  });

  it("is removed from the agents of the old queue when an admin changes the queue", async () => {
    const [first, second] = [await makeQueue(t), await makeQueue(t)];
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [first.id] });
    const firstOnly = await makeUser(t, { queueIds: [first.id] });
    const both = await makeUser(t, { queueIds: [first.id, second.id] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "hello" });
    const ticket = await ticketOf(from);
    expect(ticket.queueId).toBe(first.id);
    const sockets = { firstOnly: await connectAs(url, firstOnly, opened), both: await connectAs(url, both, opened) };

    await put(ticket.id, { status: "pending", userId: null, queueId: second.id });
    await flush(t, admin, Object.values(sockets));

    expect(removals(sockets.firstOnly, ticket.id)).toEqual([REMOVED(ticket.id)]);
    expect(removals(sockets.both, ticket.id)).toEqual([]);
    expect(updates(sockets.both, ticket.id)).toHaveLength(1);
  });

  it("is removed from the previous assignee when a transfer or an assignment leaves them no reason to see it", async () => {
    const queue = await makeQueue(t);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const outsider = await makeUser(t);
    const member = await makeUser(t, { queueIds: [queue.id] });
    const colleague = await makeUser(t, { queueIds: [queue.id] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "hello" });
    const ticket = await ticketOf(from);
    const sockets = {
      outsider: await connectAs(url, outsider, opened),
      member: await connectAs(url, member, opened),
    };

    // Assigned to someone outside its queue (a transfer to one agent alone), then on to a colleague.
    await put(ticket.id, { status: "open", userId: outsider.id });
    await put(ticket.id, { userId: colleague.id }, outsider);
    // The member of the queue keeps it in reach (and their lists decide from the update).
    await put(ticket.id, { userId: member.id });
    await flush(t, admin, Object.values(sockets));

    expect(removals(sockets.outsider, ticket.id)).toEqual([REMOVED(ticket.id)]);
    expect(removals(sockets.member, ticket.id)).toEqual([]);
    expect(updates(sockets.member, ticket.id).at(-1)).toMatchObject({ ticket: { userId: member.id } });
  });

  it("is removed from its last assignee when the customer's new message returns it to the queue unassigned", async () => {
    const queue = await makeQueue(t);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const outsider = await makeUser(t);
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "hello" });
    const ticket = await ticketOf(from);
    await put(ticket.id, { status: "open", userId: outsider.id });
    await put(ticket.id, { status: "closed", userId: outsider.id }, outsider);
    const socket = await connectAs(url, outsider, opened);

    await customerWrites(t, admin, connection.id, { from, body: "one more thing" });
    await eventually(async () => expect((await ticketOf(from)).id).toBe(ticket.id));
    await flush(t, admin, [socket]);

    expect(removals(socket, ticket.id)).toEqual([REMOVED(ticket.id)]);
    expect(updates(socket, ticket.id)).toEqual([]);
    expect((await listTickets(t, outsider, { status: "closed" })).tickets.map((x) => x.id)).not.toContain(ticket.id);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)("scaled out (TEST_REDIS_URL)", () => {
  it("removes a moved ticket from an agent connected to another process", async () => {
    // Same database and secrets: a second process of the same installation.
    const other = await createTestApp({
      database: t.database,
      config: { jwtSecret: t.config.jwtSecret, jwtRefreshSecret: t.config.jwtRefreshSecret },
    });
    try {
      const otherUrl = await listen(other);
      const [first, second] = [await makeQueue(t), await makeQueue(t)];
      const connection = await makeSimulatorConnection(t, admin, { queueIds: [first.id] });
      const firstOnly = await makeUser(t, { queueIds: [first.id] });
      const both = await makeUser(t, { queueIds: [first.id, second.id] });
      const from = customerNumber();
      await customerWrites(t, admin, connection.id, { from, body: "hello" });
      const ticket = await ticketOf(from);
      const sockets = {
        firstOnly: await connectAs(otherUrl, firstOnly, opened),
        both: await connectAs(otherUrl, both, opened),
      };

      await put(ticket.id, { status: "pending", userId: null, queueId: second.id });
      await flush(t, admin, Object.values(sockets));

      expect(removals(sockets.firstOnly, ticket.id)).toEqual([REMOVED(ticket.id)]);
      expect(removals(sockets.both, ticket.id)).toEqual([]);
      expect(updates(sockets.both, ticket.id)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
