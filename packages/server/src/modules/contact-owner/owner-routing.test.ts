import type { PresenceStatus, Ticket } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { type AutoAssigner, createAutoAssigner } from "../routing/auto-assign.js";

// Issue 23 §5: an owned contact's waiting conversation goes to its owner first (online, in the
// ticket's queue, under capacity); otherwise the queue's routing applies as usual.
let t: TestApp;
let admin: TestUser;
/** Who is online, as the assigner sees it: the realtime layer's presence, set by each test. */
const statuses = new Map<number, PresenceStatus>();
let assigner: AutoAssigner;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  assigner = createAutoAssigner({
    db: t.database.db,
    presence: async () => new Map(statuses),
    announce: (id) => t.services.tickets.announce(id),
    logger: t.app.log,
  });
});
afterAll(async () => {
  await assigner.stop();
  await t.close();
});

const put = (path: string, payload: unknown, who: TestUser = admin) =>
  t.app.inject({ method: "PUT", url: `/api${path}`, headers: who.auth, payload: payload as object });
const current = async (id: number): Promise<Ticket> =>
  (await t.app.inject({ method: "GET", url: `/api/tickets/${id}`, headers: admin.auth })).json();
const onlineOnly = (...users: TestUser[]) => {
  statuses.clear();
  for (const u of users) statuses.set(u.id, "online");
};

/** A customer writes on the connection; their contact is given to `owner` (when one); the waiting ticket. */
async function conversation(connectionId: number, owner?: TestUser): Promise<Ticket> {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "hello" });
  const ticket = await eventually(async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/tickets",
      headers: admin.auth,
      query: { showAll: "true", searchParam: from },
    });
    const found = (res.json().tickets as Ticket[]).find((x) => x.contact.number === from);
    expect(found).toBeDefined();
    return found as Ticket;
  });
  expect(ticket).toMatchObject({ status: "pending", userId: null });
  if (owner) expect((await put(`/contacts/${ticket.contactId}/owner`, { userId: owner.id })).statusCode).toBe(200);
  return ticket;
}

describe("routing to the contact's owner", () => {
  let queue: { id: number };
  let connection: { id: number };
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    queue = await makeQueue(t);
    owner = await makeUser(t, { queueIds: [queue.id] });
    other = await makeUser(t, { queueIds: [queue.id] });
    connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    expect((await put(`/routing/queues/${queue.id}`, { autoAssign: true })).statusCode).toBe(200);
  });

  it("gives the owner their customers' conversations, round-robin or not, and others' to the queue", async () => {
    onlineOnly(owner, other);
    const mine = [await conversation(connection.id, owner), await conversation(connection.id, owner)];
    const stranger = await conversation(connection.id);
    await assigner.sweep();
    for (const ticket of mine) expect(await current(ticket.id)).toMatchObject({ status: "open", userId: owner.id });
    // The unowned one went round-robin as before.
    expect((await current(stranger.id)).status).toBe("open");
  });

  it("falls back to the queue when the owner is at capacity", async () => {
    onlineOnly(owner, other);
    const open = (await current((await conversation(connection.id, owner)).id)).id;
    await assigner.sweep();
    expect((await current(open)).userId).toBe(owner.id);
    const load = (
      await t.app.inject({ method: "GET", url: "/api/tickets", headers: owner.auth, query: { status: "open" } })
    ).json().count as number;
    expect((await put(`/routing/users/${owner.id}`, { maxOpenTickets: load })).statusCode).toBe(200);
    const full = await conversation(connection.id, owner);
    await assigner.sweep();
    expect(await current(full.id)).toMatchObject({ status: "open", userId: other.id });
    expect((await put(`/routing/users/${owner.id}`, { maxOpenTickets: null })).statusCode).toBe(200);
  });

  it("falls back to the queue when the owner is offline or away", async () => {
    onlineOnly(other);
    statuses.set(owner.id, "away");
    const ticket = await conversation(connection.id, owner);
    await assigner.sweep();
    expect(await current(ticket.id)).toMatchObject({ status: "open", userId: other.id });
  });

  it("falls back to the queue when the owner is not a member of the ticket's queue", async () => {
    const outsider = await makeUser(t);
    onlineOnly(outsider, other);
    const ticket = await conversation(connection.id, outsider);
    await assigner.sweep();
    expect(await current(ticket.id)).toMatchObject({ status: "open", userId: other.id });
  });
});

describe("the owner first, without automatic assignment", () => {
  it("a conversation waits in the queue while its owner is offline, and is theirs once they are online", async () => {
    const queue = await makeQueue(t);
    const owner = await makeUser(t, { queueIds: [queue.id] });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    onlineOnly();
    const ticket = await conversation(connection.id, owner);
    await assigner.sweep();
    expect(await current(ticket.id)).toMatchObject({ status: "pending", userId: null });
    onlineOnly(owner);
    await assigner.sweep();
    expect(await current(ticket.id)).toMatchObject({ status: "open", userId: owner.id });
  });

  it("a conversation on a connection without queues goes to its owner", async () => {
    const owner = await makeUser(t);
    const connection = await makeSimulatorConnection(t, admin);
    onlineOnly(owner);
    const ticket = await conversation(connection.id, owner);
    expect(ticket.queueId).toBeNull();
    await assigner.sweep();
    expect(await current(ticket.id)).toMatchObject({ status: "open", userId: owner.id });
  });

  it("a customer still choosing a queue at the greeting menu is left to the menu", async () => {
    const [sales, support] = [await makeQueue(t), await makeQueue(t)];
    const owner = await makeUser(t, { queueIds: [sales.id, support.id] });
    const connection = await makeSimulatorConnection(t, admin, {
      queueIds: [sales.id, support.id],
      greetingMessage: "Choose: 1 sales, 2 support",
    });
    onlineOnly(owner);
    const ticket = await conversation(connection.id, owner);
    expect(ticket.choosingQueue).toBe(true);
    await assigner.sweep();
    expect(await current(ticket.id)).toMatchObject({ status: "pending", userId: null });
  });
});
