import type { Ticket } from "@zapdesk/core";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { tickets } from "../../db/schema.js";

// Issue 13 item 3: the next conversation, and the Waiting list oldest first.
let t: TestApp;
let admin: TestUser;
let whatsappId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  whatsappId = (await makeSimulatorConnection(t, admin)).id;
});
afterAll(() => t.close());

/** A ticket as the inbox would hold it, moved last at `minute` minutes past 2001-01-01 (ordering without a clock). */
async function ticket(values: {
  status: "pending" | "open" | "closed";
  queueId?: number | null;
  userId?: number | null;
  minute: number;
  menuSentAt?: Date;
}) {
  const contact = await makeContact(t);
  const [row] = await t.database.db
    .insert(tickets)
    .values({
      contactId: contact.id,
      whatsappId,
      isGroup: false,
      status: values.status,
      queueId: values.queueId ?? null,
      userId: values.userId ?? null,
      updatedAt: new Date(Date.UTC(2001, 0, 1, 0, values.minute)),
      menuSentAt: values.menuSentAt ?? null,
    })
    .returning();
  return row;
}

async function next(user: TestUser, after?: number | string) {
  const res = await t.app.inject({
    method: "GET",
    url: "/api/tickets/next",
    headers: user.auth,
    query: after === undefined ? {} : { after: String(after) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { ticket: Ticket | null }).ticket;
}

describe("GET /tickets/next", () => {
  it("falls back to the agent's own open ticket, then null when there is nothing to handle", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    expect(await next(agent)).toBeNull();
    const older = await ticket({ status: "open", queueId: queue.id, userId: agent.id, minute: 1 });
    const newer = await ticket({ status: "open", queueId: queue.id, userId: agent.id, minute: 2 });
    // Someone else's open ticket and a closed one of theirs are never next.
    const other = await makeUser(t, { queueIds: [queue.id] });
    await ticket({ status: "open", queueId: queue.id, userId: other.id, minute: 3 });
    await ticket({ status: "closed", queueId: queue.id, userId: agent.id, minute: 4 });
    // The top of Working on (the newest moved), and `after` skips the one just left.
    expect((await next(agent))?.id).toBe(newer.id);
    expect((await next(agent, newer.id))?.id).toBe(older.id);
    expect(await next(other, (await next(other))?.id)).toBeNull();
  });

  it("answers the oldest waiting ticket of the agent's queues before their open ones, never one they cannot see", async () => {
    const [mine, theirs] = [await makeQueue(t), await makeQueue(t)];
    const agent = await makeUser(t, { queueIds: [mine.id] });
    await ticket({ status: "open", queueId: mine.id, userId: agent.id, minute: 0 });
    // Older than everything, but in a queue the agent is not in: invisible to them.
    const hidden = await ticket({ status: "pending", queueId: theirs.id, minute: 10 });
    const oldest = await ticket({ status: "pending", queueId: mine.id, minute: 11 });
    const second = await ticket({ status: "pending", queueId: mine.id, minute: 12 });
    await ticket({ status: "pending", queueId: mine.id, minute: 13 });
    expect((await next(agent))?.id).toBe(oldest.id);
    expect((await next(agent, oldest.id))?.id).toBe(second.id);
    const found = await next(agent, oldest.id);
    expect(found).toMatchObject({ status: "pending", queue: { id: mine.id }, contact: { id: second.contactId } });
    // An admin sees every queue: the hidden one is theirs to handle first.
    expect((await next(admin))?.id).toBe(hidden.id);
  });

  it("never lands an agent on a ticket still choosing a queue unless the admin lets agents see those", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    // At the greeting menu (no queue, no agent, menu sent) and older than anything else in the test.
    const choosing = await ticket({ status: "pending", minute: -30, menuSentAt: new Date(Date.UTC(2000, 0, 1)) });
    const waiting = await ticket({ status: "pending", queueId: queue.id, minute: -29 });
    expect((await next(agent))?.id).toBe(waiting.id);
    expect((await next(admin))?.id).toBe(choosing.id);
    const setting = (value: string) =>
      t.app.inject({ method: "PUT", url: "/api/settings/showChoosingQueue", headers: admin.auth, payload: { value } });
    expect((await setting("enabled")).statusCode).toBe(200);
    try {
      expect((await next(agent))?.id).toBe(choosing.id);
    } finally {
      await setting("disabled");
    }
    await t.database.db.delete(tickets).where(inArray(tickets.id, [choosing.id, waiting.id]));
  });

  it("rejects a malformed `after` with 400", async () => {
    for (const after of ["abc", "0", "-3", "1.5"]) {
      const res = await t.app.inject({ method: "GET", url: `/api/tickets/next?after=${after}`, headers: admin.auth });
      expect(res.statusCode, after).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_VALIDATION" });
    }
    const unknown = await t.app.inject({ method: "GET", url: "/api/tickets/next?bogus=1", headers: admin.auth });
    expect(unknown.statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: "GET", url: "/api/tickets/next" });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("GET /tickets?sort=oldest", () => {
  it("lists the Waiting tickets oldest first, newest first by default, and rejects an unknown sort", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const a = await ticket({ status: "pending", queueId: queue.id, minute: 21 });
    const b = await ticket({ status: "pending", queueId: queue.id, minute: 22 });
    const c = await ticket({ status: "pending", queueId: queue.id, minute: 23 });
    const queueIds = JSON.stringify([queue.id]);
    const ids = async (query: Record<string, string>) =>
      (await listTickets(t, agent, { status: "pending", queueIds, ...query })).tickets
        .map((x) => x.id)
        .filter((id) => [a.id, b.id, c.id].includes(id));
    expect(await ids({ sort: "oldest" })).toEqual([a.id, b.id, c.id]);
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    expect(await ids({ sort: "newest" })).toEqual([c.id, b.id, a.id]);
    const bad = await t.app.inject({ method: "GET", url: "/api/tickets?sort=sideways", headers: agent.auth });
    expect(bad.statusCode).toBe(400);
  });
});

describe("waiting since (issue 13)", () => {
  it("starts when a ticket enters pending, survives the customer writing again, and orders the oldest-first list", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const at = (minute: number) => new Date(Date.UTC(2001, 0, 1, 0, minute));
    const a = await ticket({ status: "pending", queueId: queue.id, minute: 41 });
    const b = await ticket({ status: "pending", queueId: queue.id, minute: 42 });
    // The longest-waiting customer writes again: the ticket moves (updated_at), its wait does not restart.
    await t.database.db
      .update(tickets)
      .set({ updatedAt: at(50) })
      .where(eq(tickets.id, a.id));
    const queueIds = JSON.stringify([queue.id]);
    const waiting = async () =>
      (await listTickets(t, agent, { status: "pending", queueIds, sort: "oldest" })).tickets.filter((x) =>
        [a.id, b.id].includes(x.id),
      );
    let list = await waiting();
    expect(list.map((x) => x.id)).toEqual([a.id, b.id]);
    expect(list[0]).toMatchObject({ waitingSince: at(41).toISOString(), updatedAt: at(50).toISOString() });
    expect((await next(agent))?.id).toBe(a.id);
    // Accepted (no longer waiting), then returned: a new wait begins at the return.
    await t.database.db
      .update(tickets)
      .set({ status: "open", userId: agent.id, updatedAt: at(55) })
      .where(eq(tickets.id, a.id));
    expect((await next(agent, b.id))?.waitingSince).toBeNull();
    await t.database.db
      .update(tickets)
      .set({ status: "pending", userId: null, updatedAt: at(60) })
      .where(eq(tickets.id, a.id));
    list = await waiting();
    expect(list.map((x) => x.id)).toEqual([b.id, a.id]);
    expect(list[1].waitingSince).toBe(at(60).toISOString());
    await t.database.db.delete(tickets).where(inArray(tickets.id, [a.id, b.id]));
  });
});

describe("the OpenAPI document", () => {
  it("describes GET /tickets/next and the list's sort", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; responses?: object }>>;
    };
    const next = doc.paths["/api/tickets/next"]?.get;
    expect(next?.responses).toHaveProperty("200");
    expect(next?.parameters?.map((p) => p.name)).toContain("after");
    expect(doc.paths["/api/tickets"]?.get.parameters?.map((p) => p.name)).toContain("sort");
  });
});
