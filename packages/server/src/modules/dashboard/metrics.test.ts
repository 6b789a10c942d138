import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { listMigrations } from "../../db/migrate.js";
import { messages, queues, tickets } from "../../db/schema.js";
import { percentile } from "./metrics.service.js";

const clock = manualClock(new Date("2026-03-20T15:00:00Z"));
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 365 * 86_400 });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const MIN = 60_000;
const at = (iso: string) => new Date(iso);

interface Story {
  queueId: number | null;
  userId?: number | null;
  created: string;
  replies?: { at: string; bot?: boolean; note?: boolean; customer?: boolean }[];
  accepted?: string;
  closed?: string;
}

/** A ticket lived through the database's write paths: created pending, messages, accepted, closed. */
async function story(s: Story) {
  const db = t.database.db;
  const contact = await makeContact(t);
  const [ticket] = await db
    .insert(tickets)
    .values({ contactId: contact.id, queueId: s.queueId, status: "pending", createdAt: at(s.created), updatedAt: at(s.created) })
    .returning();
  await db.insert(messages).values({ ticketId: ticket.id, contactId: contact.id, body: "oi", createdAt: at(s.created) });
  for (const r of s.replies ?? []) {
    await db.insert(messages).values({
      ticketId: ticket.id,
      body: "resposta",
      fromMe: !r.customer,
      fromBot: r.bot ?? false,
      isNote: r.note ?? false,
      createdAt: at(r.at),
    });
  }
  if (s.accepted) {
    await db
      .update(tickets)
      .set({ status: "open", userId: s.userId ?? null, updatedAt: at(s.accepted) })
      .where(eq(tickets.id, ticket.id));
  } else if (s.userId) await db.update(tickets).set({ userId: s.userId }).where(eq(tickets.id, ticket.id));
  if (s.closed)
    await db
      .update(tickets)
      .set({ status: "closed", updatedAt: at(s.closed) })
      .where(eq(tickets.id, ticket.id));
  const [row] = await db.select().from(tickets).where(eq(tickets.id, ticket.id));
  return row;
}

const metrics = (user: TestUser, query: Record<string, string>) =>
  t.app.inject({ method: "GET", url: "/api/dashboard/metrics", headers: user.auth, query });

describe("dashboard metrics", () => {
  it("percentile interpolates as percentile_cont", () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([10], 0.9)).toBe(10);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 0.9)).toBe(90);
  });

  it("stamps the first agent reply, the acceptance and the closing on write; bots, notes and the customer are no reply", async () => {
    const q = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [q.id] });
    const row = await story({
      queueId: q.id,
      userId: agent.id,
      created: "2026-02-02T10:00:00Z",
      replies: [
        { at: "2026-02-02T10:01:00Z", bot: true },
        { at: "2026-02-02T10:02:00Z", note: true },
        { at: "2026-02-02T10:03:00Z", customer: true },
        { at: "2026-02-02T10:07:00Z" },
        { at: "2026-02-02T10:09:00Z" },
      ],
      accepted: "2026-02-02T10:05:00Z",
      closed: "2026-02-02T11:00:00Z",
    });
    expect(row.firstResponseAt).toEqual(at("2026-02-02T10:07:00Z"));
    expect(row.acceptedAt).toEqual(at("2026-02-02T10:05:00Z"));
    expect(row.closedAt).toEqual(at("2026-02-02T11:00:00Z"));
    // Reopened: no longer closed, still accepted once; closed again later.
    await t.database.db
      .update(tickets)
      .set({ status: "pending", updatedAt: at("2026-02-03T09:00:00Z") })
      .where(eq(tickets.id, row.id));
    await t.database.db
      .update(tickets)
      .set({ status: "open", updatedAt: at("2026-02-03T09:30:00Z") })
      .where(eq(tickets.id, row.id));
    let [again] = await t.database.db.select().from(tickets).where(eq(tickets.id, row.id));
    expect(again.closedAt).toBeNull();
    expect(again.acceptedAt).toEqual(at("2026-02-02T10:05:00Z"));
    await t.database.db
      .update(tickets)
      .set({ status: "closed", updatedAt: at("2026-02-03T10:00:00Z") })
      .where(eq(tickets.id, row.id));
    [again] = await t.database.db.select().from(tickets).where(eq(tickets.id, row.id));
    expect(again.closedAt).toEqual(at("2026-02-03T10:00:00Z"));
  });

  it("computes median and p90 overall, per local day, per queue and per agent, with filters and access", async () => {
    const sales = await makeQueue(t, { name: "Vendas" });
    const office = await makeQueue(t, { name: "Escritório" });
    await t.database.db
      .update(queues)
      .set({
        schedule: {
          timezone: "America/Sao_Paulo",
          days: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, from: "09:00", to: "18:00" })),
          outOfHoursMessage: "Fechado",
          holidays: [],
        },
      })
      .where(eq(queues.id, office.id));
    const ana = await makeUser(t, { queueIds: [sales.id], name: "Ana" });
    const bia = await makeUser(t, { queueIds: [office.id], name: "Bia" });
    // São Paulo is UTC−3: 2026-01-05T01:00Z is still Jan 4 there.
    await story({
      queueId: sales.id,
      userId: ana.id,
      created: "2026-01-05T01:00:00Z",
      replies: [{ at: "2026-01-05T01:04:00Z" }],
      accepted: "2026-01-05T01:02:00Z",
      closed: "2026-01-05T02:00:00Z",
    });
    await story({
      queueId: sales.id,
      userId: ana.id,
      created: "2026-01-05T12:00:00Z",
      replies: [{ at: "2026-01-05T12:10:00Z" }],
      closed: "2026-01-05T14:00:00Z",
    });
    await story({
      queueId: sales.id,
      userId: ana.id,
      created: "2026-01-05T13:00:00Z",
      replies: [{ at: "2026-01-05T13:20:00Z" }],
    });
    // Friday 17:50 → Monday 09:05 São Paulo: 15 business minutes of waiting, 2 d 15 h 15 min of first response.
    await story({
      queueId: office.id,
      userId: bia.id,
      created: "2026-01-09T20:50:00Z",
      replies: [{ at: "2026-01-09T21:00:00Z", bot: true }, { at: "2026-01-12T12:05:00Z" }],
    });
    // Outside the period.
    await story({
      queueId: sales.id,
      userId: ana.id,
      created: "2026-01-20T12:00:00Z",
      replies: [{ at: "2026-01-20T12:01:00Z" }],
    });

    const period = { from: "2026-01-04", to: "2026-01-10", tz: "America/Sao_Paulo" };
    const res = await metrics(admin, period);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.overall.tickets).toBe(4);
    // First responses: 4, 10, 20 min and 2 days 15 h 15 min.
    const fr = [4 * MIN, 10 * MIN, 20 * MIN, (2 * 24 * 60 + 15 * 60 + 15) * MIN];
    expect(body.overall.firstResponse).toEqual({ median: 15 * MIN, p90: Math.round(fr[2] + (fr[3] - fr[2]) * 0.7), count: 4 });
    expect(body.overall.resolution).toEqual({ median: 90 * MIN, p90: Math.round(60 * MIN + 60 * MIN * 0.9), count: 2 });
    // Waiting: 2 (accepted before the reply), 10, 20 and 15 business minutes.
    expect(body.overall.waiting).toEqual({ median: 12.5 * MIN, p90: Math.round(15 * MIN + 5 * MIN * 0.7), count: 4 });

    expect(body.byDay).toHaveLength(7);
    const day = (d: string) => body.byDay.find((x: { day: string }) => x.day === d);
    expect(day("2026-01-04").tickets).toBe(1);
    expect(day("2026-01-04").firstResponse.median).toBe(4 * MIN);
    expect(day("2026-01-05").tickets).toBe(2);
    expect(day("2026-01-05").firstResponse).toEqual({ median: 15 * MIN, p90: 19 * MIN, count: 2 });
    expect(day("2026-01-09").waiting.median).toBe(15 * MIN);
    expect(day("2026-01-06")).toMatchObject({ tickets: 0, firstResponse: { median: null, p90: null, count: 0 } });

    const queue = (id: number) => body.byQueue.find((x: { queueId: number }) => x.queueId === id);
    expect(queue(sales.id)).toMatchObject({ name: "Vendas", tickets: 3, resolution: { median: 90 * MIN, count: 2 } });
    expect(queue(office.id).waiting).toEqual({ median: 15 * MIN, p90: 15 * MIN, count: 1 });
    const user = (id: number) => body.byUser.find((x: { userId: number }) => x.userId === id);
    expect(user(ana.id)).toMatchObject({ name: "Ana", tickets: 3, firstResponse: { median: 10 * MIN, count: 3 } });
    expect(user(bia.id).firstResponse.median).toBe((2 * 24 * 60 + 15 * 60 + 15) * MIN);

    // Filters.
    const onlyOffice = (await metrics(admin, { ...period, queueId: String(office.id) })).json();
    expect(onlyOffice.overall.tickets).toBe(1);
    const onlyAna = (await metrics(admin, { ...period, userId: String(ana.id) })).json();
    expect(onlyAna.overall.tickets).toBe(3);
    expect(onlyAna.byUser.map((u: { userId: number }) => u.userId)).toEqual([ana.id]);

    // An agent sees the tickets of their queues (and their own) only; the filters offer their queues and themselves.
    const asBia = (await metrics(bia, period)).json();
    expect(asBia.overall.tickets).toBe(1);
    expect(asBia.options).toEqual({ queues: [{ id: office.id, name: "Escritório" }], users: [{ id: bia.id, name: "Bia" }] });
    expect(body.options.users.map((u: { id: number }) => u.id)).toEqual(expect.arrayContaining([ana.id, bia.id]));
  });

  it("defaults to the current month up to today in the viewer's time zone", async () => {
    const res = await metrics(admin, { tz: "America/Sao_Paulo" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ from: "2026-03-01", to: "2026-03-20" });
    expect(res.json().byDay).toHaveLength(20);
  });

  it("is described in the OpenAPI document with its query and answer", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const route = doc.paths["/api/dashboard/metrics"].get;
    expect(route.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["from", "to", "tz", "queueId", "userId"]),
    );
    expect(Object.keys(route.responses[200].content["application/json"].schema.properties)).toEqual(
      expect.arrayContaining(["overall", "byDay", "byQueue", "byUser"]),
    );
  });

  it("answers 400 to bad input", async () => {
    const bad: Record<string, string>[] = [
      { from: "2026-13-01" },
      { from: "2026-02-30" },
      { from: "yesterday" },
      { from: "2026-02-10", to: "2026-02-01" },
      { from: "2025-01-01", to: "2026-01-02" },
      { tz: "Mars/Olympus" },
      { queueId: "abc" },
      { userId: "0" },
      { other: "1" },
    ];
    for (const query of bad) {
      const res = await metrics(admin, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    expect((await metrics(admin, { from: "2025-01-02", to: "2026-01-02" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/dashboard/metrics" })).statusCode).toBe(401);
  });

  it("the migration's backfill fills the stored timestamps of existing tickets", async () => {
    const q = await makeQueue(t);
    const closed = await story({
      queueId: q.id,
      created: "2026-02-10T10:00:00Z",
      replies: [{ at: "2026-02-10T10:03:00Z", note: true }, { at: "2026-02-10T10:06:00Z" }],
      accepted: "2026-02-10T10:01:00Z",
      closed: "2026-02-10T12:00:00Z",
    });
    const ids = [closed.id];
    await t.database.db
      .update(tickets)
      .set({ firstResponseAt: null, closedAt: null, acceptedAt: null })
      .where(inArray(tickets.id, ids));
    const migration = listMigrations().find((m) => m.name === "0015_ticket_metrics");
    const backfill = migration?.statements.filter((s) => s.includes("UPDATE") && !s.includes("FUNCTION")) ?? [];
    expect(backfill).toHaveLength(3);
    for (const statement of backfill) await t.database.exec(statement);
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, closed.id));
    expect(row.firstResponseAt).toEqual(at("2026-02-10T10:06:00Z"));
    expect(row.closedAt).toEqual(row.updatedAt);
    expect(row.acceptedAt).toBeNull();
  });
});
