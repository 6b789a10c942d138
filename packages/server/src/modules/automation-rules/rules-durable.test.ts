import { randomBytes } from "node:crypto";
import type { Rule } from "@zapdesk/core";
import { and, count, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventually } from "../../../test/conversation.js";
import { makeAdmin, makeContact, type TestUser } from "../../../test/factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../../../test/harness.js";
import type { Database } from "../../db/client.js";
import { messages, ruleEvents, ruleRuns, tickets } from "../../db/schema.js";

// Issue 23 §1: a rule fires exactly once — across a restart between the event and the worker, and
// with two processes draining one database.

async function setUp(t: TestApp) {
  const admin = await makeAdmin(t);
  const tag = await t.app.inject({
    method: "POST",
    url: "/api/tags",
    headers: admin.auth,
    payload: { name: `Tag ${randomBytes(3).toString("hex")}`, color: "#123456" },
  });
  const tagId = (tag.json() as { id: number }).id;
  const res = await t.app.inject({
    method: "POST",
    url: "/api/automation-rules",
    headers: admin.auth,
    payload: {
      name: "Note on tag",
      enabled: true,
      trigger: "tagAdded",
      maxPerHour: 100,
      actions: [{ type: "addNote", body: "tagged" }],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { admin, tagId, rule: res.json() as Rule };
}

async function pendingTickets(t: TestApp, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const contact = await makeContact(t);
    const [row] = await t.database.db
      .insert(tickets)
      .values({ contactId: contact.id, status: "pending" })
      .returning({ id: tickets.id });
    ids.push(row.id);
  }
  return ids;
}

async function tag(t: TestApp, admin: TestUser, ticketId: number, tagId: number) {
  const res = await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticketId}`,
    headers: admin.auth,
    payload: { tagIds: [tagId] },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const notesOf = async (db: Database["db"], ids: number[]) =>
  (
    await db
      .select({ n: count() })
      .from(messages)
      .where(and(inArray(messages.ticketId, ids), eq(messages.isNote, true)))
  )[0].n;

describe("automation rules: exactly once", () => {
  it("an event committed before a crash fires after the restart, once", async () => {
    const database = await openTestDatabase();
    try {
      // The first process: its worker never runs (it "crashes" after the event committed).
      const first = await createTestApp({ database, start: false });
      const { admin, tagId, rule } = await setUp(first);
      const [ticketId] = await pendingTickets(first, 1);
      await tag(first, admin, ticketId, tagId);
      expect(await database.db.select().from(ruleEvents).where(eq(ruleEvents.ticketId, ticketId))).toHaveLength(1);
      await first.app.close();
      expect(await notesOf(database.db, [ticketId])).toBe(0);

      const second = await createTestApp({ database });
      try {
        await eventually(async () => expect(await notesOf(database.db, [ticketId])).toBe(1));
        await second.ruleWorker.drain();
        await second.ruleWorker.drain();
        expect(await notesOf(database.db, [ticketId])).toBe(1);
        const runs = await database.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
        expect(runs.map((r) => [r.ticketId, r.outcome])).toEqual([[ticketId, "done"]]);
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
      await database.drop();
    }
  });

  it("two processes on one database apply each event once", async () => {
    const database = await openTestDatabase();
    const a = await createTestApp({ database, start: false });
    const b = await createTestApp({ database, start: false });
    try {
      const { admin, tagId, rule } = await setUp(a);
      const ids = await pendingTickets(a, 20);
      for (const id of ids) await tag(a, admin, id, tagId);
      // Both workers drain at once, twice over.
      await Promise.all([a.ruleWorker.drain(), b.ruleWorker.drain(), a.ruleWorker.drain(), b.ruleWorker.drain()]);
      await Promise.all([a.ruleWorker.drain(), b.ruleWorker.drain()]);
      expect(await notesOf(database.db, ids)).toBe(20);
      const runs = await database.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
      expect(runs).toHaveLength(20);
      expect(new Set(runs.map((r) => r.ticketId)).size).toBe(20);
    } finally {
      await a.close();
      await b.close();
      await database.close();
      await database.drop();
    }
  });
});
