import type { Ticket } from "@zapdesk/core";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen } from "../../../test/sockets.js";
import { createAutoAssigner, nextAgent } from "./auto-assign.js";

// Issue 13: automatic assignment, round-robin among a queue's online agents under their capacity.
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

const put = (path: string, payload: unknown, who: TestUser = admin) =>
  t.app.inject({ method: "PUT", url: `/api${path}`, headers: who.auth, payload: payload as object });

async function ticketOf(from: string): Promise<Ticket> {
  return eventually(async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/tickets",
      headers: admin.auth,
      query: { showAll: "true", searchParam: from },
    });
    const found = (res.json().tickets as Ticket[]).find((x) => x.contact.number === from);
    expect(found?.queueId).not.toBeNull();
    return found!;
  });
}
async function current(id: number): Promise<Ticket> {
  return (await t.app.inject({ method: "GET", url: `/api/tickets/${id}`, headers: admin.auth })).json();
}
const online = async (who: TestUser) => {
  const socket = await connectAs(url, who, opened);
  await eventually(async () =>
    expect((await t.services.presence.list()).find((p) => p.userId === who.id)?.status).toBe("online"),
  );
  return socket;
};

describe("automatic assignment", () => {
  it("picks the next agent after the last one, skipping those at capacity", () => {
    const load = new Map([[2, 1]]);
    const cap = new Map<number, number | null>([[2, 1]]);
    expect(nextAgent([3, 1, 2], null, new Map(), new Map())).toBe(1);
    expect(nextAgent([1, 2, 3], 1, new Map(), new Map())).toBe(2);
    expect(nextAgent([1, 2, 3], 1, load, cap)).toBe(3);
    expect(nextAgent([1, 2, 3], 3, new Map(), new Map())).toBe(1);
    expect(nextAgent([2], null, load, cap)).toBeUndefined();
  });

  it("rejects bad input and non-admins", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    expect((await put(`/routing/queues/${queue.id}`, { autoAssign: "yes" })).statusCode).toBe(400);
    expect((await put(`/routing/queues/${queue.id}`, { autoAssign: true }, agent)).statusCode).toBe(403);
    expect((await put("/routing/queues/999999", { autoAssign: true })).json().error).toBe("ERR_NO_QUEUE_FOUND");
    expect((await put(`/routing/users/${agent.id}`, { maxOpenTickets: 0 })).statusCode).toBe(400);
    expect((await put("/routing/users/abc", { maxOpenTickets: 2 })).statusCode).toBe(400);
    expect((await put(`/routing/users/${agent.id}`, { maxOpenTickets: null })).json()).toEqual({
      userId: agent.id,
      maxOpenTickets: null,
    });
    const settings = await t.app.inject({ method: "GET", url: "/api/routing", headers: agent.auth });
    expect(settings.statusCode).toBe(403);
  });

  it("round-robin among online agents under capacity; away and offline agents skipped; an agent coming online gets the oldest", async () => {
    const queue = await makeQueue(t);
    const [ana, bia, caio] = [
      await makeUser(t, { queueIds: [queue.id] }),
      await makeUser(t, { queueIds: [queue.id] }),
      await makeUser(t, { queueIds: [queue.id] }),
    ];
    expect((await put(`/routing/queues/${queue.id}`, { autoAssign: true })).statusCode).toBe(200);
    expect((await put(`/routing/users/${ana.id}`, { maxOpenTickets: 1 })).statusCode).toBe(200);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    await online(ana);
    const biaSocket = await online(bia);

    const customers = [customerNumber(), customerNumber(), customerNumber()];
    const tickets: Ticket[] = [];
    for (const from of customers) {
      await customerWrites(t, admin, connection.id, { from, body: "hi" });
      tickets.push(await ticketOf(from));
      await t.services.autoAssign.sweep();
    }
    const assigned = await Promise.all(tickets.map((x) => current(x.id)));
    expect(assigned.map((x) => x.status)).toEqual(["open", "open", "open"]);
    const users = assigned.map((x) => x.userId);
    // Ana (capacity 1) gets one; Bia the rest; Caio is offline and gets none.
    expect(users.filter((u) => u === ana.id)).toHaveLength(1);
    expect(users.filter((u) => u === bia.id)).toHaveLength(2);
    expect(users).not.toContain(caio.id);
    expect(users[0]).not.toBe(users[1]);

    // Bia goes away, Ana is full: the next ticket waits.
    biaSocket.emit("presence", "away");
    await eventually(async () =>
      expect((await t.services.presence.list()).find((p) => p.userId === bia.id)?.status).toBe("away"),
    );
    const waiting = customerNumber();
    await customerWrites(t, admin, connection.id, { from: waiting, body: "hello?" });
    const pending = await ticketOf(waiting);
    await t.services.autoAssign.sweep();
    expect(await current(pending.id)).toMatchObject({ status: "pending", userId: null });

    // Caio comes online: the waiting ticket is his, and he hears of it on his socket.
    const caioSocket = await connectAs(url, caio, opened);
    await eventually(async () => {
      await t.services.autoAssign.sweep();
      expect(await current(pending.id)).toMatchObject({ status: "open", userId: caio.id });
    });
    await eventually(() =>
      expect(
        caioSocket.received.some((r) => r.event === "ticket" && (r.payload as { ticket?: Ticket }).ticket?.id === pending.id),
      ).toBe(true),
    );
    // He alone is told it was given to him (chime, browser notification, push on the web side).
    const assignedTo = (socket: typeof caioSocket) =>
      socket.received.filter((r) => r.event === "ticketAssigned" && (r.payload as { ticket: Ticket }).ticket.id === pending.id);
    await eventually(() => expect(assignedTo(caioSocket).map((r) => r.payload)).toMatchObject([{ userId: caio.id }]));
    expect(assignedTo(biaSocket)).toEqual([]);
  });

  it("two passes at once (two processes) never exceed an agent's capacity", async () => {
    const queue = await makeQueue(t);
    const dora = await makeUser(t, { queueIds: [queue.id] });
    await put(`/routing/users/${dora.id}`, { maxOpenTickets: 1 });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const ids: number[] = [];
    for (const from of [customerNumber(), customerNumber()]) {
      await customerWrites(t, admin, connection.id, { from, body: "hi" });
      ids.push((await ticketOf(from)).id);
    }
    await online(dora);
    await put(`/routing/queues/${queue.id}`, { autoAssign: true });
    const other = createAutoAssigner({
      db: t.database.db,
      presence: () => t.realtime.presence(),
      announce: async () => {},
      logger: t.app.log,
    });
    await Promise.all([t.services.autoAssign.sweep(), other.sweep(), other.sweep(), t.services.autoAssign.sweep()]);
    const states = await Promise.all(ids.map(current));
    expect(states.filter((x) => x.userId === dora.id)).toHaveLength(1);
    // The oldest first.
    expect(states[0]).toMatchObject({ status: "open", userId: dora.id });
    expect(states[1]).toMatchObject({ status: "pending", userId: null });
  });

  it("stop() waits for a pass under way, so none outlives the app's database and Redis clients", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    const assigner = createAutoAssigner({
      db: t.database.db,
      presence: async () => {
        await gate;
        finished = true;
        return new Map();
      },
      announce: async () => {},
      logger: t.app.log,
    });
    await put(`/routing/queues/${(await makeQueue(t)).id}`, { autoAssign: true });
    const pass = assigner.sweep();
    let stopDone = false;
    const stopped = assigner.stop().then(() => {
      stopDone = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopDone).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(true);
    await pass;
  });
});
