import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

// Issue 12 items 16 and 20: the queue filter of the ticket lists.
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

async function ticketIn(connectionId: number) {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "hello" });
  const { tickets } = await listTickets(t, admin, { showAll: "true", status: "pending" });
  return tickets.find((x) => x.contact.number === from)!;
}

async function put(ticketId: number, payload: object) {
  const res = await t.app.inject({ method: "PUT", url: `/api/tickets/${ticketId}`, headers: admin.auth, payload });
  expect(res.statusCode, res.body).toBe(200);
}

const ids = async (user: TestUser, query: Record<string, string>) => (await listTickets(t, user, query)).tickets.map((x) => x.id);

describe("the queue filter", () => {
  it("always keeps the user's own tickets, whatever their queue (a transfer to one agent alone)", async () => {
    const [mine, theirs] = [await makeQueue(t), await makeQueue(t)];
    const agent = await makeUser(t, { queueIds: [mine.id] });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [theirs.id] });
    const ticket = await ticketIn(connection.id);
    expect(ticket.queueId).toBe(theirs.id);
    await put(ticket.id, { status: "open", userId: agent.id });
    // Transferred to the agent alone: the queue stays one that is not theirs.
    expect(await ids(agent, { status: "open", queueIds: JSON.stringify([mine.id]) })).toContain(ticket.id);
    expect(await ids(agent, { status: "open" })).toContain(ticket.id);
  });

  it("with nothing ticked shows only the user's own tickets, and without the parameter filters nothing", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const queued = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const unqueued = await makeSimulatorConnection(t, admin);
    const waiting = await ticketIn(queued.id);
    const noQueue = await ticketIn(unqueued.id);
    const own = await ticketIn(queued.id);
    await put(own.id, { status: "open", userId: agent.id });

    const ticked = JSON.stringify([queue.id]);
    expect(await ids(agent, { status: "pending", queueIds: ticked })).toEqual(expect.arrayContaining([waiting.id, noQueue.id]));
    expect(await ids(agent, { status: "open", queueIds: ticked })).toContain(own.id);

    // Unticking every queue narrows: no waiting ticket, no ticket without queue, only the user's own.
    expect(await ids(agent, { status: "pending", queueIds: "[]" })).toEqual([]);
    expect(await ids(agent, { status: "open", queueIds: "[]" })).toEqual([own.id]);

    // No queueIds at all (Whaticket-style clients, the bell): no queue filter.
    expect(await ids(agent, { status: "pending" })).toEqual(expect.arrayContaining([waiting.id, noQueue.id]));
  });
});
