import type { RuleCondition, RuleLog } from "@zapdesk/core";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { customerNumber, customerWrites, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { automationRules, contacts, messages, ruleEvents, ruleRuns, ruleSkips, tickets } from "../../db/schema.js";
import { insertBatchMessages } from "../messages/inbound-batch-sql.js";
import { quietFor, receivedRulesOf } from "./rule-quiet.js";

// Issue 23 §1: a customer's message that no enabled rule can fire on (each rule looks for words the
// message does not hold) is not queued for the rules' worker; the rules' log still counts it.

const text = (op: "contains" | "matches", value: string): RuleCondition => ({ type: "messageText", op, value });
const rulesOf = (...rules: { id: number; conditions: RuleCondition[] }[]) =>
  receivedRulesOf(rules.map((r) => JSON.stringify({ id: r.id, version: "7", conditions: r.conditions })));

describe("which messages no rule can fire on", () => {
  it("those whose text fails a text condition of every rule, counting the condition each failed", () => {
    const rules = rulesOf(
      { id: 2, conditions: [{ type: "status", statuses: ["pending"] }, text("contains", "boleto")] },
      { id: 1, conditions: [text("matches", "pedido\\s*#?\\d{4,}")] },
    );
    expect(rules.stamp).toBe("1.7,2.7");
    expect(quietFor(rules, ["oi", "só o horário"])).toEqual({
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
    expect(quietFor(rules, ["nada", "Quero uma ação"])).toBeNull();
    expect(quietFor(rules, ["xis"])).toBeNull();
    expect(quietFor(rules, ["nada"])).not.toBeNull();
  });

  it("none when a rule has no text condition (it reads the ticket when the worker claims the event)", () => {
    const rules = rulesOf(
      { id: 1, conditions: [text("contains", "boleto")] },
      { id: 2, conditions: [{ type: "queue", queueIds: [9], negate: false }] },
    );
    expect(quietFor(rules, ["oi"])).toBeNull();
    expect(quietFor(rulesOf({ id: 3, conditions: [] }), ["oi"])).toBeNull();
  });

  it("none without rules or received texts; a rule whose conditions cannot be read decides nothing", () => {
    expect(quietFor(rulesOf(), ["oi"])).toBeNull();
    expect(quietFor(rulesOf({ id: 1, conditions: [text("contains", "boleto")] }), [])).toBeNull();
    const odd = receivedRulesOf([JSON.stringify({ id: 4, version: "1", conditions: [{ type: "nonsense" }] })]);
    expect(odd.rules[0].conditions).toEqual([]);
    expect(quietFor(odd, ["oi"])).toBeNull();
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
function freshRulesAtNextMessage() {
  const realNow = Date.now.bind(Date);
  ahead += 5_000;
  vi.spyOn(Date, "now").mockImplementation(() => realNow() + ahead);
}

async function addRules(conditions: (i: number) => RuleCondition[], n: number) {
  const rows = await t.database.db
    .insert(automationRules)
    .values(
      Array.from({ length: n }, (_, i) => ({
        name: `Quiet rule ${i} ${Math.random()}`,
        enabled: true,
        trigger: "messageReceived",
        conditions: conditions(i),
        actions: [{ type: "addNote" as const, body: "rule fired" }],
        maxPerHour: 100,
        runAsId: admin.id,
      })),
    )
    .returning({ id: automationRules.id });
  return rows.map((r) => r.id);
}

const queuedFor = async (ticketIds: number[]) =>
  (await t.database.db.select({ n: count() }).from(ruleEvents).where(inArray(ruleEvents.ticketId, ticketIds)))[0].n;

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
      await insertBatchMessages(tx, [row(`${from}-quiet`)], quiet);
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
