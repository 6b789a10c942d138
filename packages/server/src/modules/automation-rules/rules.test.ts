import { randomBytes } from "node:crypto";
import type { Rule, RuleDryRun, RuleLog, Ticket } from "@zapdesk/core";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { auditLog, automationRules, messages, ruleEvents, ruleRuns, tickets, ticketTags } from "../../db/schema.js";

// Issue 23 §1: automation rules — each trigger and condition, the log, the loop guard, the hourly limit.
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let queueId: number;
let otherQueueId: number;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  queueId = (await makeQueue(t)).id;
  otherQueueId = (await makeQueue(t)).id;
  agent = await makeUser(t, { queueIds: [queueId] });
  connectionId = (await makeSimulatorConnection(t, admin, { isDefault: true })).id;
});
// Each test's rules stop when it ends: the next test's events are its own.
afterEach(async () => {
  await t.database.db.update(automationRules).set({ enabled: false });
});
afterAll(() => t.close());

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who: TestUser, payload?: object) =>
  t.app.inject({ method, url, headers: who.auth, payload });
const unique = (prefix: string) => `${prefix} ${randomBytes(3).toString("hex")}`;

async function makeRule(body: object): Promise<Rule> {
  const res = await call("POST", "/api/automation-rules", admin, { name: unique("Rule"), enabled: true, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Rule;
}
async function makeTag() {
  const res = await call("POST", "/api/tags", admin, { name: unique("Tag"), color: "#123456" });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number }).id;
}
async function logOf(ruleId: number, query = "") {
  const res = await call("GET", `/api/automation-rules/${ruleId}/log${query}`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RuleLog;
}
const drain = () => t.ruleWorker.drain();
const tagIdsOf = async (id: number) =>
  (await t.database.db.select().from(ticketTags).where(eq(ticketTags.ticketId, id))).map((r) => r.tagId);
const row = async (id: number) => (await t.database.db.select().from(tickets).where(eq(tickets.id, id)))[0];

/** A customer writes; their (pending) ticket. */
async function customerTicket(body = "oi, preciso de ajuda", from = customerNumber()) {
  await customerWrites(t, admin, connectionId, { from, body });
  const ticket = await eventually(async () => {
    const found = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
      (x) => x.contact.number === from,
    );
    expect(found).toBeDefined();
    return found as Ticket;
  });
  return { ticket, from };
}

describe("automation rules: the API", () => {
  it("is for rules:manage only; checks names, regular expressions, idle minutes and what actions name", async () => {
    expect((await call("GET", "/api/automation-rules", agent)).json().error).toBe("ERR_NO_PERMISSION");
    const body = { name: unique("R"), trigger: "messageReceived", actions: [{ type: "returnToQueue" }] };
    expect((await call("POST", "/api/automation-rules", agent, body)).statusCode).toBe(403);
    const rule = await makeRule({ ...body, enabled: false });
    expect(rule).toMatchObject({ enabled: false, maxPerHour: 3, runAsId: admin.id, conditions: [] });
    const dup = await call("POST", "/api/automation-rules", admin, { ...body, name: rule.name.toUpperCase() });
    expect([dup.statusCode, dup.json().error]).toEqual([409, "ERR_RULE_NAME_EXISTS"]);
    for (const pattern of ["(a+)+$", "(a|aa)*b", "(\\w+)\\1", "x".repeat(201), "(?=a)", "[unclosed"]) {
      const res = await call("POST", "/api/automation-rules", admin, {
        ...body,
        name: unique("R"),
        conditions: [{ type: "messageText", op: "matches", value: pattern }],
      });
      expect([pattern, res.statusCode, res.json().error]).toEqual([pattern, 400, "ERR_VALIDATION"]);
    }
    const idle = await call("POST", "/api/automation-rules", admin, { ...body, name: unique("R"), trigger: "noReplyFromUs" });
    expect(idle.json().details[0].path).toEqual(["idleMinutes"]);
    const missing = await call("POST", "/api/automation-rules", admin, {
      ...body,
      name: unique("R"),
      actions: [{ type: "addTag", tagId: 999999 }],
    });
    expect(missing.json().details[0].path).toEqual(["actions", 0]);
    const enabled = await call("POST", `/api/automation-rules/${rule.id}/enable`, admin, { enabled: true });
    expect(enabled.json().enabled).toBe(true);
    expect((await call("DELETE", `/api/automation-rules/${rule.id}`, admin)).statusCode).toBe(200);
    expect((await call("GET", `/api/automation-rules/${rule.id}`, admin)).json().error).toBe("ERR_NO_RULE_FOUND");
    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(rule.id)));
    expect(audited.map((a) => a.action)).toEqual(expect.arrayContaining(["rule.created", "rule.updated", "rule.deleted"]));
  });
});

describe("automation rules: triggers and conditions", () => {
  it("a received message whose text matches fires; the log shows the firing and counts the events whose conditions failed", async () => {
    const tag = await makeTag();
    const rule = await makeRule({
      trigger: "messageReceived",
      conditions: [
        { type: "messageText", op: "matches", value: "pedido\\s*#?\\d{4,}" },
        { type: "status", statuses: ["pending"] },
        { type: "firstMessage", value: true },
      ],
      actions: [{ type: "addTag", tagId: tag }],
    });
    const hit = await customerTicket("Olá, meu PEDIDO #12345 não chegou");
    const miss = await customerTicket("só queria saber o horário");
    await drain();
    expect(await tagIdsOf(hit.ticket.id)).toEqual([tag]);
    expect(await tagIdsOf(miss.ticket.id)).toEqual([]);
    const log = await logOf(rule.id);
    const forHit = log.runs.find((r) => r.ticketId === hit.ticket.id)!;
    expect(forHit).toMatchObject({
      outcome: "done",
      event: { kind: "messageReceived" },
      results: [{ type: "addTag", outcome: "done" }],
    });
    expect(forHit.event.text).toContain("PEDIDO #12345");
    // The miss did not fire: no run, a count of the first condition (and no row per rule and event).
    expect(log.runs.map((r) => r.ticketId)).toEqual([hit.ticket.id]);
    expect(log.notMet).toMatchObject({ count: 1, byCondition: [{ index: 0, count: 1 }] });
    expect(new Date(log.notMet.since!).getTime()).toBeLessThanOrEqual(Date.now());
    expect(await t.database.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id))).toHaveLength(1);
    // Not the first message any more: the third condition stops it.
    await customerWrites(t, admin, connectionId, { from: hit.from, body: "pedido 99999 também" });
    await eventually(async () => {
      await drain();
      const after = await logOf(rule.id);
      expect(after.runs.map((r) => [r.ticketId, r.outcome])).toEqual([[hit.ticket.id, "done"]]);
      expect(after.notMet).toMatchObject({
        count: 2,
        byCondition: [
          { index: 0, count: 1 },
          { index: 2, count: 1 },
        ],
      });
    });
  });

  it("queue, assignee, tag, contact field, connection kind, time and day conditions", async () => {
    const tag = await makeTag();
    const mark = await makeTag();
    const { ticket } = await customerTicket();
    for (const change of [
      { queueId, status: "pending" },
      { status: "open", userId: agent.id, tagIds: [tag] },
    ]) {
      const moved = await call("PUT", `/api/tickets/${ticket.id}`, admin, change);
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const edited = await call("PUT", `/api/contacts/${ticket.contact.id}`, admin, {
      name: ticket.contact.name,
      number: ticket.contact.number,
      extraInfo: [{ name: "Plano", value: "Ouro" }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const holds = [
      { type: "queue", queueIds: [queueId] },
      { type: "queue", queueIds: [otherQueueId], negate: true },
      { type: "connection", whatsappIds: [connectionId] },
      { type: "connectionKind", kinds: ["simulator"] },
      { type: "tag", tagId: tag },
      { type: "contactField", name: "plano", op: "equals", value: "ouro" },
      { type: "assignee", value: [agent.id] },
      { type: "assignee", value: "any" },
      { type: "status", statuses: ["open"] },
      { type: "timeOfDay", from: "00:00", to: "24:00", timezone: "America/Sao_Paulo" },
      { type: "dayOfWeek", days: [0, 1, 2, 3, 4, 5, 6], timezone: "America/Sao_Paulo" },
    ];
    const fails = [
      { type: "queue", queueIds: [otherQueueId] },
      { type: "connectionKind", kinds: ["cloud"] },
      { type: "tag", tagId: tag, has: false },
      { type: "contactField", name: "Plano", op: "empty" },
      { type: "assignee", value: "none" },
      { type: "status", statuses: ["closed"] },
      { type: "dayOfWeek", days: [(new Date().getUTCDay() + 3) % 7], timezone: "UTC" },
    ];
    const good = await makeRule({ trigger: "messageReceived", conditions: holds, actions: [{ type: "addTag", tagId: mark }] });
    const bad = await Promise.all(
      fails.map((condition) =>
        makeRule({ trigger: "messageReceived", conditions: [...holds, condition], actions: [{ type: "returnToQueue" }] }),
      ),
    );
    await customerWrites(t, admin, connectionId, { from: ticket.contact.number, body: "mais uma" });
    await eventually(async () => {
      await drain();
      expect((await logOf(good.id)).runs.map((r) => [r.outcome, r.failedCondition])).toEqual([["done", null]]);
    });
    expect(await tagIdsOf(ticket.id)).toEqual(expect.arrayContaining([tag, mark]));
    for (const rule of bad) {
      const log = await logOf(rule.id);
      expect(log.runs).toEqual([]);
      expect(log.notMet).toMatchObject({ count: 1, byCondition: [{ index: holds.length, count: 1 }] });
    }
    expect((await row(ticket.id)).status).toBe("open");
  });

  it("ticket created, status, queue and assignee changed, tag added and message sent each fire their rules", async () => {
    const tag = await makeTag();
    const kinds = ["ticketCreated", "statusChanged", "queueChanged", "assigneeChanged", "tagAdded", "messageSent"] as const;
    const rules = new Map<string, Rule>();
    for (const trigger of kinds) {
      const note = { type: "addNote", body: `fired: ${trigger}` };
      const conditions = trigger === "tagAdded" ? [{ type: "tag", tagId: tag }] : [];
      rules.set(trigger, await makeRule({ trigger, conditions, actions: [note], maxPerHour: 10 }));
    }
    const { ticket } = await customerTicket();
    for (const change of [{ queueId, status: "pending" }, { status: "open", userId: agent.id }, { tagIds: [tag] }]) {
      const res = await call("PUT", `/api/tickets/${ticket.id}`, admin, change);
      expect(res.statusCode, res.body).toBe(200);
    }
    const sent = await call("POST", `/api/messages/${ticket.id}`, agent, { body: "Olá!" });
    expect(sent.statusCode, sent.body).toBe(201);
    await eventually(async () => {
      await drain();
      for (const trigger of kinds) {
        const runs = (await logOf(rules.get(trigger)!.id)).runs.filter((r) => r.ticketId === ticket.id);
        expect([trigger, runs.some((r) => r.outcome === "done" && r.event.kind === trigger)]).toEqual([trigger, true]);
      }
    });
    const queueRun = (await logOf(rules.get("queueChanged")!.id)).runs.find((r) => r.ticketId === ticket.id)!;
    expect(queueRun.event.previous).toMatchObject({ queueId: null });
    const notes = await t.database.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.isNote, true)));
    expect(notes.map((n) => n.body)).toEqual(expect.arrayContaining(kinds.map((k) => `fired: ${k}`)));
  });

  it("no reply from us for N business minutes fires once per silence", async () => {
    const { ticket } = await customerTicket("alguém aí?");
    const rule = await makeRule({
      trigger: "noReplyFromUs",
      idleMinutes: 5,
      conditions: [{ type: "connection", whatsappIds: [connectionId] }],
      actions: [{ type: "addNote", body: "Sem resposta há 5 minutos" }],
    });
    await t.ruleWorker.sweepIdle();
    await drain();
    expect((await logOf(rule.id)).runs.filter((r) => r.ticketId === ticket.id)).toEqual([]);
    // Six minutes pass (the queue has no hours: every minute counts).
    await t.database.db.execute(
      sql`update messages set created_at = created_at - interval '6 minutes' where ticket_id = ${ticket.id}`,
    );
    await t.ruleWorker.sweepIdle();
    await t.ruleWorker.sweepIdle();
    await drain();
    const runs = (await logOf(rule.id)).runs.filter((r) => r.ticketId === ticket.id);
    expect(runs.map((r) => [r.outcome, r.event.kind])).toEqual([["done", "noReplyFromUs"]]);
    // The note is ours, but not a reply: the silence is the same one and does not fire again.
    await t.ruleWorker.sweepIdle();
    await drain();
    expect((await logOf(rule.id)).runs.filter((r) => r.ticketId === ticket.id)).toHaveLength(1);
  });
});

describe("automation rules: never loop, never flood", () => {
  it("a rule's actions trigger rules one level deep, no further", async () => {
    const [a, b, c, d] = [await makeTag(), await makeTag(), await makeTag(), await makeTag()];
    const chain = async (when: number, add: number) =>
      makeRule({ trigger: "tagAdded", conditions: [{ type: "tag", tagId: when }], actions: [{ type: "addTag", tagId: add }] });
    await chain(a, b);
    await chain(b, c);
    const third = await chain(c, d);
    const { ticket } = await customerTicket();
    await call("PUT", `/api/tickets/${ticket.id}`, admin, { tagIds: [a] });
    await eventually(async () => {
      await drain();
      expect((await tagIdsOf(ticket.id)).sort()).toEqual([a, b, c].sort());
    });
    await drain();
    expect((await tagIdsOf(ticket.id)).includes(d)).toBe(false);
    expect((await logOf(third.id)).runs.filter((r) => r.ticketId === ticket.id && r.outcome === "done")).toEqual([]);
    const [{ depth }] = await t.database.db
      .select({ depth: sql<number>`max(${ruleEvents.depth})::int` })
      .from(ruleEvents)
      .where(eq(ruleEvents.ticketId, ticket.id));
    expect(depth).toBe(1);
  });

  it("fires at most maxPerHour times per ticket; the rest are logged as rate limited", async () => {
    const { ticket, from } = await customerTicket("um");
    const rule = await makeRule({
      trigger: "messageReceived",
      maxPerHour: 2,
      conditions: [{ type: "messageText", op: "contains", value: "repete" }],
      actions: [{ type: "addNote", body: "visto" }],
    });
    for (const body of ["repete 1", "repete 2", "repete 3"]) await customerWrites(t, admin, connectionId, { from, body });
    await eventually(async () => {
      await drain();
      const runs = (await logOf(rule.id)).runs.filter((r) => r.ticketId === ticket.id);
      expect(runs.map((r) => r.outcome)).toEqual(["rateLimited", "done", "done"]);
    });
    expect((await logOf(rule.id, "?outcome=rateLimited")).count).toBe(1);
  });

  it("an action refused is logged with its code and undoes that rule's actions alone", async () => {
    const tag = await makeTag();
    const gone = await makeTag();
    const rule = await makeRule({
      trigger: "tagAdded",
      conditions: [{ type: "tag", tagId: tag }],
      actions: [
        { type: "addNote", body: "antes" },
        { type: "addTag", tagId: gone },
      ],
    });
    // The second action's tag is deleted after the rule was saved.
    expect((await call("DELETE", `/api/tags/${gone}`, admin)).statusCode).toBe(200);
    const { ticket } = await customerTicket();
    await call("PUT", `/api/tickets/${ticket.id}`, admin, { tagIds: [tag] });
    await eventually(async () => {
      await drain();
      const [run] = (await logOf(rule.id)).runs;
      expect(run).toMatchObject({ outcome: "refused", ticketId: ticket.id, errorCode: "ERR_NO_TAG_FOUND" });
      expect(run.errorMessage).toContain("addTag");
    });
    const notes = await t.database.db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.isNote, true)));
    expect(notes[0].n).toBe(0);
  });
});

describe("automation rules: dry run", () => {
  it("shows, ticket by ticket, what an unsaved rule would have done in the last 7 days, and writes nothing", async () => {
    const { ticket } = await customerTicket("quero cancelar minha assinatura");
    await customerTicket("tudo certo, obrigado");
    const counts = async () => {
      const db = t.database.db;
      const [[r], [e], [a], [m]] = await Promise.all([
        db.select({ n: count() }).from(ruleRuns),
        db.select({ n: count() }).from(ruleEvents),
        db.select({ n: count() }).from(auditLog),
        db.select({ n: count() }).from(messages),
      ]);
      return [r.n, e.n, a.n, m.n];
    };
    const before = await counts();
    const res = await call("POST", "/api/automation-rules/dry-run", admin, {
      name: "Cancelamentos",
      trigger: "messageReceived",
      conditions: [{ type: "messageText", op: "contains", value: "CANCELAR" }],
      actions: [{ type: "assignQueue", queueId }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as RuleDryRun;
    const mine = result.tickets.filter((x) => x.ticketId === ticket.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].firings[0]).toMatchObject({ outcome: "wouldRun", actions: [{ type: "assignQueue", queueId }] });
    expect(result.tickets.every((x) => x.firings.every((f) => f.event.text?.toLowerCase().includes("cancelar")))).toBe(true);
    expect(await counts()).toEqual(before);
    expect((await row(ticket.id)).queueId).toBeNull();
    expect((await call("POST", "/api/automation-rules/dry-run", agent, {})).statusCode).toBe(403);
  });
});

describe("automation rules: answering a waiting customer", () => {
  it("a rule's message goes out from the bot and leaves the ticket waiting in its queue", async () => {
    const rule = await makeRule({
      trigger: "messageReceived",
      conditions: [{ type: "messageText", op: "contains", value: "horário" }],
      actions: [{ type: "sendMessage", body: "Atendemos das 9h às 18h." }],
    });
    const { ticket } = await customerTicket("qual o horário de vocês?");
    await drain();
    const run = (await logOf(rule.id)).runs.find((r) => r.ticketId === ticket.id);
    expect(run).toMatchObject({ outcome: "done", results: [{ type: "sendMessage", outcome: "done" }] });
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(sent.map((m) => [m.body, m.fromBot])).toContainEqual(["Atendemos das 9h às 18h.", true]);
    // The agent sees which automation sent it.
    const shown = (await ticketMessages(t, admin, ticket.id)).messages.find((m) => m.body === "Atendemos das 9h às 18h.");
    expect(shown).toMatchObject({ fromBot: true, automation: "rule" });
    expect(await row(ticket.id)).toMatchObject({ status: "pending", userId: null });
  });
});
