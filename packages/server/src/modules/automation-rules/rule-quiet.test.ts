import type { Action, RuleCondition, RuleLog, RuleTrigger } from "@zapdesk/core";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { customerNumber, customerWrites, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { automationRules, contacts, messages, ruleEvents, ruleRuns, ruleSkips, tickets } from "../../db/schema.js";
import { insertAndTouchBatch } from "../messages/inbound-batch-sql.js";
import { quietFor, receivedRulesOf } from "./rule-quiet.js";

// Issue 23 §1: a customer's message that no enabled rule can fire on (each rule looks for words the
// message does not hold) is not queued for the rules' worker; the rules' log still counts it.

const text = (op: "contains" | "matches", value: string): RuleCondition => ({ type: "messageText", op, value });
interface RuleRowJson {
  id: number;
  conditions?: RuleCondition[];
  trigger?: string;
  actions?: string[];
}
/** Rows as the inbound settings' statement returns them (a rule on "a message arrives" that adds a note, unless said). */
const rulesOf = (...rules: RuleRowJson[]) =>
  receivedRulesOf(
    rules.map((r) =>
      JSON.stringify({
        id: r.id,
        version: "7",
        trigger: r.trigger ?? "messageReceived",
        conditions: r.conditions ?? null,
        actions: r.actions ?? ["addNote"],
      }),
    ),
  );
/** Received texts whose tickets are not known (only text conditions can be decided). */
const texts = (...bodies: string[]) => bodies.map((body) => ({ text: body, ticket: null }));
const waiting = { status: "pending", queueId: 3, userId: null, whatsappId: 5, provider: "cloud" };

describe("which messages no rule can fire on", () => {
  it("those whose text fails a text condition of every rule, counting the condition each failed", () => {
    const rules = rulesOf(
      { id: 2, conditions: [{ type: "status", statuses: ["pending"] }, text("contains", "boleto")] },
      { id: 1, conditions: [text("matches", "pedido\\s*#?\\d{4,}")] },
    );
    expect(rules.stamp).toBe("1.7,2.7");
    expect(quietFor(rules, texts("oi", "só o horário"))).toEqual({
      stamp: "1.7,2.7",
      skips: [
        { ruleId: 1, failedCondition: 0 },
        { ruleId: 2, failedCondition: 1 },
        { ruleId: 1, failedCondition: 0 },
        { ruleId: 2, failedCondition: 1 },
      ],
    });
  });

  it("none when one text may fire a rule, as the worker reads texts: accents and case folded, patterns", () => {
    const rules = rulesOf({ id: 1, conditions: [text("contains", "ACAO")] }, { id: 2, conditions: [text("matches", "^x")] });
    expect(quietFor(rules, texts("nada", "Quero uma ação"))).toBeNull();
    expect(quietFor(rules, texts("xis"))).toBeNull();
    expect(quietFor(rules, texts("nada"))).not.toBeNull();
  });

  it("none when a rule has no condition decided here (tags, contact fields: the worker reads them)", () => {
    const rules = rulesOf(
      { id: 1, conditions: [text("contains", "boleto")] },
      { id: 2, conditions: [{ type: "tag", tagId: 4, has: true }] },
    );
    expect(quietFor(rules, [{ text: "oi", ticket: waiting }])).toBeNull();
    expect(quietFor(rulesOf({ id: 3, conditions: [] }), [{ text: "oi", ticket: waiting }])).toBeNull();
  });

  it("none without rules or received texts; a rule whose conditions cannot be read decides nothing", () => {
    expect(quietFor(rulesOf(), texts("oi"))).toBeNull();
    expect(quietFor(rulesOf({ id: 1, conditions: [text("contains", "boleto")] }), [])).toBeNull();
    const odd = receivedRulesOf([
      JSON.stringify({ id: 4, version: "1", trigger: "messageReceived", conditions: [{ type: "nonsense" }], actions: [] }),
    ]);
    expect(odd.rules[0].conditions).toEqual([]);
    expect(quietFor(odd, [{ text: "oi", ticket: waiting }])).toBeNull();
  });
});

describe("ticket conditions, on the ticket as the message's transaction leaves it", () => {
  const statusClosed: RuleCondition = { type: "status", statuses: ["closed"] };
  const queue = (queueIds: number[], negate = false): RuleCondition => ({ type: "queue", queueIds, negate });

  it("decide a rule whose ticket condition fails, handing the trigger every rule's stamp", () => {
    const rules = rulesOf(
      { id: 1, conditions: [statusClosed] },
      { id: 2, conditions: [text("contains", "boleto"), queue([9])] },
      {
        id: 3,
        conditions: [
          { type: "assignee", value: "any" },
          { type: "connectionKind", kinds: ["baileys"] },
        ],
      },
      { id: 4, trigger: "ticketCreated", actions: ["addTag"] },
    );
    expect(rules.ticketsSettled).toBe(true);
    expect(rules.stamp).toBe("1.7,2.7,3.7");
    expect(quietFor(rules, [{ text: "oi", ticket: waiting }])).toEqual({
      stamp: "every:1.7,2.7,3.7,4.7",
      skips: [
        { ruleId: 1, failedCondition: 0 },
        // A text condition that fails first: the one counted.
        { ruleId: 2, failedCondition: 0 },
        // The connection's kind before the rest of the ticket (it needs no other rule's stamp).
        { ruleId: 3, failedCondition: 1 },
      ],
    });
    // Assigned, on a Baileys connection: rule 3 may fire.
    expect(quietFor(rules, [{ text: "oi", ticket: { ...waiting, userId: 8, provider: "baileys" } }])).toBeNull();
    // The connection's kind unknown: left to the worker.
    expect(quietFor(rules, [{ text: "oi", ticket: { ...waiting, userId: 8, provider: undefined } }])).toBeNull();
    // Each message's own ticket: one of them in queue 9 with "boleto" fires rule 2.
    expect(
      quietFor(rules, [
        { text: "oi", ticket: waiting },
        { text: "boleto", ticket: { ...waiting, queueId: 9 } },
      ]),
    ).toBeNull();
    // Text alone decides: the stamp of the "a message arrives" rules, as before.
    expect(
      quietFor(rulesOf({ id: 2, conditions: [text("contains", "boleto"), queue([9])] }), [{ text: "oi", ticket: waiting }]),
    ).toMatchObject({ stamp: "2.7" });
  });

  it("time conditions are decided at the time the event would be queued with, whatever the other rules do", () => {
    // A Sunday, 12:00 in UTC, 09:00 in São Paulo.
    const at = new Date("2026-12-06T12:00:00Z");
    const rules = rulesOf(
      { id: 1, conditions: [{ type: "timeOfDay", from: "08:00", to: "10:00", timezone: "UTC" }] },
      { id: 2, conditions: [{ type: "dayOfWeek", days: [1, 2, 3, 4, 5], timezone: "America/Sao_Paulo" }] },
      { id: 3, trigger: "ticketCreated", actions: ["assignQueue"] },
    );
    expect(quietFor(rules, [{ text: "oi", ticket: null, at }])).toEqual({
      stamp: "1.7,2.7",
      skips: [
        { ruleId: 1, failedCondition: 0 },
        { ruleId: 2, failedCondition: 0 },
      ],
    });
    const inHours = rulesOf({
      id: 1,
      conditions: [{ type: "timeOfDay", from: "08:00", to: "10:00", timezone: "America/Sao_Paulo" }],
    });
    expect(quietFor(inHours, [{ text: "oi", ticket: null, at }])).toBeNull();
    // The time not known: left to the worker.
    expect(quietFor(rules, texts("oi"))).toBeNull();
  });

  it("but the connection's are the worker's when an enabled rule, of any trigger, moves tickets (its actions could change what they read)", () => {
    for (const moving of ["assignAgent", "assignQueue", "resolve", "returnToQueue", "sendMessage", "sendTemplate"]) {
      const rules = rulesOf(
        { id: 1, conditions: [statusClosed] },
        { id: 2, trigger: "ticketCreated", actions: ["addTag", moving] },
      );
      expect(rules.ticketsSettled, moving).toBe(false);
      expect(quietFor(rules, [{ text: "oi", ticket: waiting }]), moving).toBeNull();
    }
    // The connection, which no action changes, is decided still, on the "a message arrives" rules' stamp.
    const byConnection = rulesOf(
      { id: 1, conditions: [statusClosed, { type: "connection", whatsappIds: [6], negate: false }] },
      { id: 2, conditions: [{ type: "connectionKind", kinds: ["baileys"] }] },
      { id: 3, trigger: "ticketCreated", actions: ["assignQueue"] },
    );
    expect(quietFor(byConnection, [{ text: "oi", ticket: waiting }])).toEqual({
      stamp: "1.7,2.7",
      skips: [
        { ruleId: 1, failedCondition: 1 },
        { ruleId: 2, failedCondition: 0 },
      ],
    });
    // A disabled rule is not among the rows; actions that cannot be read count as moving.
    expect(
      receivedRulesOf([JSON.stringify({ id: 1, version: "1", trigger: "ticketCreated", actions: null })]).ticketsSettled,
    ).toBe(false);
  });
});

let t: TestApp;
let admin: TestUser;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  // Drained by hand below.
  await t.ruleWorker.stop();
  admin = await makeAdmin(t);
  connectionId = (await makeSimulatorConnection(t, admin, {})).id;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.database.db.update(automationRules).set({ enabled: false });
});
afterAll(() => t.close());

/** The inbound path's cached settings and rules (a second) are read again at the next message. */
let ahead = 0;
const realNow = Date.now.bind(Date);
function freshRulesAtNextMessage() {
  ahead += 5_000;
  vi.spyOn(Date, "now").mockImplementation(() => realNow() + ahead);
}

/** Until the test ends, the clock the inbound path's cache reads stands still: its copy of the rules stays. */
function holdCachedRules() {
  const pinned = Date.now();
  vi.spyOn(Date, "now").mockReturnValue(pinned);
}

async function addRules(
  conditions: (i: number) => RuleCondition[],
  n: number,
  rule: { trigger?: RuleTrigger; actions?: Action[] } = {},
) {
  const rows = await t.database.db
    .insert(automationRules)
    .values(
      Array.from({ length: n }, (_, i) => ({
        name: `Quiet rule ${i} ${Math.random()}`,
        enabled: true,
        trigger: rule.trigger ?? "messageReceived",
        conditions: conditions(i),
        actions: rule.actions ?? [{ type: "addNote" as const, body: "rule fired" }],
        maxPerHour: 100,
        runAsId: admin.id,
      })),
    )
    .returning({ id: automationRules.id });
  return rows.map((r) => r.id);
}

const queuedFor = async (ticketIds: number[]) =>
  (await t.database.db.select({ n: count() }).from(ruleEvents).where(inArray(ruleEvents.ticketId, ticketIds)))[0].n;
/** The customers' messages queued for the rules (not the tickets' other events). */
const messagesQueuedFor = async (ticketIds: number[]) =>
  (
    await t.database.db
      .select({ n: count() })
      .from(ruleEvents)
      .where(and(inArray(ruleEvents.ticketId, ticketIds), eq(ruleEvents.kind, "messageReceived")))
  )[0].n;

/** The tickets of these customers (by number). */
const ticketsOf = async (froms: string[]) =>
  (
    await t.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(inArray(contacts.number, froms))
  ).map((r) => r.id);

describe("messages no rule can fire on, through the inbound path", () => {
  it("20 rules whose words no message holds: nothing is queued, and each rule's log still counts the messages", async () => {
    const ids = await addRules((i) => [text("contains", `never-said-${i}`)], 20);
    freshRulesAtNextMessage();
    const froms = Array.from({ length: 10 }, () => customerNumber());
    for (const [i, from] of froms.entries()) await customerWrites(t, admin, connectionId, { from, body: `oi ${i}` });
    expect(await queuedFor(await ticketsOf(froms))).toBe(0);

    await t.ruleWorker.drain();
    const skips = await t.database.db.select().from(ruleSkips).where(inArray(ruleSkips.ruleId, ids));
    expect(skips.reduce((sum, s) => sum + s.count, 0)).toBe(200);
    const res = await t.app.inject({ method: "GET", url: `/api/automation-rules/${ids[3]}/log`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json() as RuleLog).toMatchObject({ runs: [], notMet: { count: 10, byCondition: [{ index: 0, count: 10 }] } });
  });

  it("a message holding a rule's words is queued and fires it", async () => {
    const [boleto] = await addRules(() => [text("contains", "boleto")], 1);
    await addRules(() => [text("contains", "cancelar")], 1);
    freshRulesAtNextMessage();
    const from = customerNumber();
    await customerWrites(t, admin, connectionId, { from, body: "Preciso da 2ª via do BOLETO" });
    const [ticketId] = await ticketsOf([from]);
    expect(await queuedFor([ticketId])).toBe(1);
    await t.ruleWorker.drain();
    const runs = await t.database.db
      .select()
      .from(ruleRuns)
      .where(and(eq(ruleRuns.ruleId, boleto), eq(ruleRuns.ticketId, ticketId)));
    expect(runs.map((r) => r.outcome)).toEqual(["done"]);
  });

  it("a rule changed within the inbound path's cached second still sees the next message (the trigger checks the stamp)", async () => {
    const [rule] = await addRules(() => [text("contains", "never-said")], 1);
    freshRulesAtNextMessage();
    const from = customerNumber();
    // The inbound path reads the rule as it is now, and keeps it a second.
    await customerWrites(t, admin, connectionId, { from, body: "oi" });
    const [ticketId] = await ticketsOf([from]);
    expect(await queuedFor([ticketId])).toBe(0);
    // Within that second the rule starts looking for "oi": the cached copy says no rule can fire,
    // and the trigger, whose stamp of the rules differs, queues the message anyway.
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/automation-rules/${rule}`,
      headers: admin.auth,
      payload: { conditions: [text("contains", "oi")] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await customerWrites(t, admin, connectionId, { from, body: "oi de novo" });
    expect(await queuedFor([ticketId])).toBe(1);
    await t.ruleWorker.drain();
    const runs = await t.database.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule));
    expect(runs.map((r) => [r.ticketId, r.outcome])).toEqual([[ticketId, "done"]]);
  });

  it("hands the trigger nothing beyond its own statement: a later message of the transaction is queued", async () => {
    await addRules(() => [text("contains", "never-said")], 1);
    const from = customerNumber();
    await customerWrites(t, admin, connectionId, { from, body: "primeira" });
    const [ticketId] = await ticketsOf([from]);
    const before = await queuedFor([ticketId]);
    const [ticket] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
    const row = (wid: string) => ({
      wid,
      whatsappId: connectionId,
      ticketId,
      contactId: ticket.contactId,
      body: "oi",
      mediaType: "chat",
      fromMe: false,
      read: false,
      ack: 0,
      createdAt: new Date(),
    });
    await t.database.db.transaction(async (tx) => {
      const stamp = await tx.execute(
        sql`select coalesce(string_agg(id::text || '.' || xmin::text, ',' order by id), '') as stamp
          from automation_rules where enabled and "trigger" = 'messageReceived'`,
      );
      const quiet = (stamp as unknown as { rows: { stamp: string }[] }).rows[0].stamp;
      // As the batch stores it: the insert, and its ticket's update in the same round trip.
      const tally = new Map([[ticketId, { preview: "oi", unread: 1, latest: new Date() }]]);
      await insertAndTouchBatch(tx, [row(`${from}-quiet`)], quiet, connectionId, tally, undefined);
      await tx.insert(messages).values(row(`${from}-later`));
    });
    expect(await queuedFor([ticketId])).toBe(before + 1);
    const [event] = await t.database.db
      .select({ wid: messages.wid })
      .from(ruleEvents)
      .innerJoin(messages, eq(messages.id, ruleEvents.messageId))
      .where(eq(ruleEvents.ticketId, ticketId))
      .orderBy(sql`${ruleEvents.id} desc`)
      .limit(1);
    expect(event.wid).toBe(`${from}-later`);
  });
});

describe("ticket conditions decided on arrival, through the inbound path", () => {
  const statusClosed: RuleCondition = { type: "status", statuses: ["closed"] };

  it("20 rules on a status no customer's message finds: nothing is queued, new customers or known ones, and the log counts them", async () => {
    const ids = await addRules(() => [statusClosed], 20);
    freshRulesAtNextMessage();
    const froms = Array.from({ length: 5 }, () => customerNumber());
    for (const from of froms) {
      await customerWrites(t, admin, connectionId, { from, body: "oi" });
      await customerWrites(t, admin, connectionId, { from, body: "ainda aí?" });
    }
    expect(await queuedFor(await ticketsOf(froms))).toBe(0);

    await t.ruleWorker.drain();
    const skips = await t.database.db.select().from(ruleSkips).where(inArray(ruleSkips.ruleId, ids));
    expect(skips.reduce((sum, s) => sum + s.count, 0)).toBe(200);
    const res = await t.app.inject({ method: "GET", url: `/api/automation-rules/${ids[0]}/log`, headers: admin.auth });
    expect(res.json() as RuleLog).toMatchObject({ runs: [], notMet: { count: 10, byCondition: [{ index: 0, count: 10 }] } });
  });

  it("read the queue the message routes the ticket to, and a rule whose conditions hold is queued and fires", async () => {
    const queue = await makeQueue(t);
    const routed = (await makeSimulatorConnection(t, admin, { queueIds: [queue.id] })).id;
    // Not in the connection's only queue: every new ticket is routed there, so this never holds.
    await addRules(() => [{ type: "queue", queueIds: [queue.id], negate: true }], 1);
    freshRulesAtNextMessage();
    const quiet = customerNumber();
    await customerWrites(t, admin, routed, { from: quiet, body: "oi" });
    const [quietTicket] = await ticketsOf([quiet]);
    expect(await queuedFor([quietTicket])).toBe(0);

    // In that queue: it holds on the message that routes the ticket there.
    const [inQueue] = await addRules(() => [{ type: "queue", queueIds: [queue.id], negate: false }], 1);
    freshRulesAtNextMessage();
    const from = customerNumber();
    await customerWrites(t, admin, routed, { from, body: "oi" });
    const [ticketId] = await ticketsOf([from]);
    expect(await messagesQueuedFor([ticketId])).toBe(1);
    await t.ruleWorker.drain();
    const runs = await t.database.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, inQueue));
    expect(runs.map((r) => [r.ticketId, r.outcome])).toEqual([[ticketId, "done"]]);
  });

  it("are left to the worker while an enabled rule of another trigger moves tickets", async () => {
    await addRules(() => [statusClosed], 1);
    await addRules(() => [], 1, { trigger: "ticketCreated", actions: [{ type: "returnToQueue" }] });
    freshRulesAtNextMessage();
    const from = customerNumber();
    await customerWrites(t, admin, connectionId, { from, body: "oi" });
    const [ticketId] = await ticketsOf([from]);
    expect(await messagesQueuedFor([ticketId])).toBe(1);
  });

  it("a time condition is decided on arrival even while rules move tickets, and one that holds is queued and fires", async () => {
    const hhmm = (hoursFromNow: number) => new Date(realNow() + hoursFromNow * 3_600_000).toISOString().slice(11, 16);
    // "Outside these hours, answer": a window two hours from now, and an action that moves tickets.
    await addRules(() => [{ type: "timeOfDay", from: hhmm(2), to: hhmm(3), timezone: "UTC" }], 1, {
      actions: [{ type: "sendMessage", body: "Estamos fora do horário" }],
    });
    freshRulesAtNextMessage();
    const quiet = customerNumber();
    await customerWrites(t, admin, connectionId, { from: quiet, body: "oi" });
    expect(await messagesQueuedFor(await ticketsOf([quiet]))).toBe(0);

    const [now] = await addRules(() => [{ type: "timeOfDay", from: hhmm(-1), to: hhmm(1), timezone: "UTC" }], 1);
    freshRulesAtNextMessage();
    const from = customerNumber();
    await customerWrites(t, admin, connectionId, { from, body: "oi" });
    const [ticketId] = await ticketsOf([from]);
    expect(await messagesQueuedFor([ticketId])).toBe(1);
    await t.ruleWorker.drain();
    const runs = await t.database.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, now));
    expect(runs.map((r) => [r.ticketId, r.outcome])).toEqual([[ticketId, "done"]]);
  });

  it("are not trusted by the trigger once any rule changed within the inbound path's cached second", async () => {
    await addRules(() => [statusClosed], 1);
    freshRulesAtNextMessage();
    const from = customerNumber();
    await customerWrites(t, admin, connectionId, { from, body: "oi" });
    const [ticketId] = await ticketsOf([from]);
    expect(await messagesQueuedFor([ticketId])).toBe(0);
    holdCachedRules();
    // A rule on another trigger, one that moves tickets: the cached copy does not know it, and the
    // stamp of every rule the trigger reads differs, so the next message is queued for the worker.
    await addRules(() => [{ type: "tag", tagId: 1, has: true }], 1, {
      trigger: "tagAdded",
      actions: [{ type: "returnToQueue" }],
    });
    await customerWrites(t, admin, connectionId, { from, body: "de novo" });
    expect(await messagesQueuedFor([ticketId])).toBe(1);
  });
});
