import type { RuleLog } from "@zapdesk/core";
import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { countStatements, statementsOf } from "../../../test/statements.js";
import { automationRules, ruleEvents, ruleRuns, ruleSkips, tickets } from "../../db/schema.js";
import { createHousekeeping } from "../../jobs/housekeeping.js";

// Issue 23 §1, "20 enabled rules cost at most 10 % more CPU than none": the worker handles a batch
// of events in a fixed number of statements, whatever the number of events and of rules whose
// conditions fail (those are counted, not logged row by row), and the log does not grow for ever.
let t: TestApp;
let admin: TestUser;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  // The test drains by hand, inside the statement counter's context (a first drain does the
  // no-reply sweep, due once a minute, out of the way).
  await t.ruleWorker.stop();
  await t.ruleWorker.drain();
  admin = await makeAdmin(t);
  connectionId = (await makeSimulatorConnection(t, admin, {})).id;
  countStatements();
});
afterAll(() => t.close());

describe("automation rules: cost per event", () => {
  it("20 rules whose conditions fail on 10 messages: a few statements for the batch, no log row, counts per rule", async () => {
    const rules = await t.database.db
      .insert(automationRules)
      .values(
        Array.from({ length: 20 }, (_, i) => ({
          name: `Cost rule ${i}`,
          enabled: true,
          trigger: "messageReceived",
          // A condition on the ticket, which the inbound path leaves to the worker while a rule moves
          // tickets (the one below; rule-quiet.ts): every message is queued and the worker evaluates
          // it (rule-quiet.test.ts has the messages the inbound path decides).
          conditions: [{ type: "status" as const, statuses: ["closed" as const] }],
          actions: [{ type: "addNote" as const, body: "x" }],
          runAsId: admin.id,
        })),
      )
      .returning({ id: automationRules.id });
    // Moves tickets, on an event none of these messages makes.
    await t.database.db.insert(automationRules).values({
      name: "Cost rule that moves tickets",
      enabled: true,
      trigger: "tagAdded",
      conditions: [],
      actions: [{ type: "returnToQueue" as const }],
      runAsId: admin.id,
    });
    const ids = rules.map((r) => r.id);
    for (let i = 0; i < 10; i++) await customerWrites(t, admin, connectionId, { from: customerNumber(), body: `oi ${i}` });
    const [{ queued }] = await t.database.db.select({ queued: count() }).from(ruleEvents);
    expect(queued).toBe(10);

    const { result, statements } = await statementsOf(() => t.ruleWorker.drain());
    expect(result).toBe(10);
    // begin, claim (events with tickets and messages), enabled rules, counts, handled, commit; then
    // begin, an empty claim, commit. Per event and per rule before: 3 statements an event, 200 log rows.
    expect(statements.length, statements.join("\n---\n")).toBeLessThanOrEqual(9);
    expect(await t.database.db.select().from(ruleRuns).where(inArray(ruleRuns.ruleId, ids))).toEqual([]);
    const skips = await t.database.db.select().from(ruleSkips).where(inArray(ruleSkips.ruleId, ids));
    expect(skips.map((s) => [s.ruleId, s.failedCondition]).sort((a, b) => a[0] - b[0])).toEqual(ids.map((id) => [id, 0]));
    expect(skips.reduce((sum, s) => sum + s.count, 0)).toBe(200);
    // Handled message events are gone (the dry run reads the messages themselves).
    const [{ left }] = await t.database.db.select({ left: count() }).from(ruleEvents);
    expect(left).toBe(0);

    const res = await t.app.inject({ method: "GET", url: `/api/automation-rules/${ids[3]}/log`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json() as RuleLog).toMatchObject({
      runs: [],
      count: 0,
      notMet: { count: 10, byCondition: [{ index: 0, count: 10 }] },
    });
    await t.database.db.update(automationRules).set({ enabled: false });
  });
});

describe("automation rules: a backlog", () => {
  it("one run of the worker handles more than 500 queued events (a tick is bounded by time, not by 500)", async () => {
    const [rule] = await t.database.db
      .insert(automationRules)
      .values({
        name: "Backlog rule",
        enabled: true,
        trigger: "messageReceived",
        // A ticket condition on a rule that moves tickets: the inbound path leaves it to the worker
        // whatever its cache of the rules holds, so the message is queued (rule-quiet.ts).
        conditions: [{ type: "status", statuses: ["closed"] }],
        actions: [{ type: "returnToQueue" }],
        runAsId: admin.id,
      })
      .returning();
    await customerWrites(t, admin, connectionId, { from: customerNumber(), body: "backlog" });
    const [queued] = await t.database.db.select().from(ruleEvents);
    // 700 copies of the customer's event, as a burst leaves them.
    await t.database.db
      .insert(ruleEvents)
      .values(
        Array.from({ length: 699 }, () => ({ kind: "messageReceived", ticketId: queued.ticketId, messageId: queued.messageId })),
      );
    // Claims of 200: a run stopped at 500 handled 600; a run makes at least five full claims (more
    // while its second lasts), so it goes on to the fourth claim however slow the machine.
    expect(await t.ruleWorker.drain()).toBe(700);
    const [skips] = await t.database.db.select().from(ruleSkips).where(eq(ruleSkips.ruleId, rule.id));
    expect(skips.count).toBe(700);
    await t.database.db.update(automationRules).set({ enabled: false });
  });
});

describe("automation rules: enabling", () => {
  it("a rule enabled while another's event waits in the queue sees the events after it only", async () => {
    const makeRule = async (body: object) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/automation-rules",
        headers: admin.auth,
        payload: { trigger: "messageReceived", actions: [{ type: "addNote", body: "visto" }], ...body },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { id: number }).id;
    };
    const logOf = async (id: number) =>
      (await t.app.inject({ method: "GET", url: `/api/automation-rules/${id}/log`, headers: admin.auth })).json() as RuleLog;
    const first = await makeRule({
      name: "Already on",
      enabled: true,
      conditions: [{ type: "messageText", op: "contains", value: "never-said" }],
    });
    const later = await makeRule({ name: "Enabled later", enabled: false });
    await customerWrites(t, admin, connectionId, { from: customerNumber(), body: "before" });
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/automation-rules/${later}`,
      headers: admin.auth,
      payload: { enabled: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.ruleWorker.drain();
    // The waiting event was the first rule's (counted as not met), not the newly enabled one's.
    expect((await logOf(first)).notMet.count).toBe(1);
    expect(await logOf(later)).toMatchObject({ runs: [], notMet: { count: 0 } });
    await customerWrites(t, admin, connectionId, { from: customerNumber(), body: "after" });
    await t.ruleWorker.drain();
    expect((await logOf(later)).runs.map((r) => [r.outcome, r.event.text])).toEqual([["done", "after"]]);
    await t.database.db.update(automationRules).set({ enabled: false });
  });
});

describe("automation rules: the log's retention", () => {
  it("the hourly housekeeping removes firings and counts older than 30 days, and keeps the newer", async () => {
    const [rule] = await t.database.db
      .insert(automationRules)
      .values({ name: "Retention rule", trigger: "tagAdded", actions: [{ type: "addNote", body: "x" }], runAsId: admin.id })
      .returning();
    const [ticket] = await t.database.db.select({ id: tickets.id }).from(tickets).limit(1);
    const day = 86_400_000;
    const at = (days: number) => new Date(Date.now() - days * day);
    const event = {
      kind: "tagAdded" as const,
      ticketId: ticket.id,
      messageId: null,
      text: null,
      tagId: 1,
      previous: null,
      depth: 0,
      at: at(0).toISOString(),
    };
    await t.database.db.insert(ruleRuns).values(
      [31, 29].map((days, i) => ({
        ruleId: rule.id,
        eventId: 1_000_000 + i,
        ticketId: ticket.id,
        outcome: "done",
        event,
        createdAt: at(days),
      })),
    );
    await t.database.db.insert(ruleSkips).values(
      [31, 29].map((days) => ({
        ruleId: rule.id,
        hour: at(days),
        failedCondition: 0,
        count: 5,
        lastAt: at(days),
      })),
    );
    const logger = { warn: () => {} } as unknown as Parameters<typeof createHousekeeping>[0]["logger"];
    await createHousekeeping({ db: t.database.db, logger }).run();
    const runs = await t.database.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
    expect(runs.map((r) => r.eventId)).toEqual([1_000_001]);
    const skips = await t.database.db.select().from(ruleSkips).where(eq(ruleSkips.ruleId, rule.id));
    expect(skips.map((s) => s.hour.getTime())).toHaveLength(1);
    expect(skips[0].hour.getTime()).toBeGreaterThan(at(30).getTime());
  });
});
