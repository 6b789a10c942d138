import type { Action, Rule, RuleCondition, RuleNotMet, RuleOutcome, RuleRun } from "@zapdesk/core";
import { and, asc, count, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { automationRules, ruleRuns, ruleSkips } from "../../db/schema.js";

export type RuleRow = typeof automationRules.$inferSelect;
export type RuleRunRow = typeof ruleRuns.$inferSelect;

export function presentRule(row: RuleRow): Rule {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    trigger: row.trigger as Rule["trigger"],
    idleMinutes: row.idleMinutes,
    conditions: row.conditions,
    actions: row.actions,
    maxPerHour: row.maxPerHour,
    runAsId: row.runAsId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentRun(row: RuleRunRow): RuleRun {
  return {
    id: row.id,
    ruleId: row.ruleId,
    ticketId: row.ticketId,
    outcome: row.outcome as RuleOutcome,
    event: row.event,
    failedCondition: row.failedCondition,
    results: row.results,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    createdAt: row.createdAt.toISOString(),
  };
}

export function listRules(db: Db): Promise<RuleRow[]> {
  return db
    .select()
    .from(automationRules)
    .orderBy(asc(sql`lower(${automationRules.name})`), asc(automationRules.id));
}

export async function findRule(db: Db, id: number): Promise<RuleRow | undefined> {
  const [row] = await db.select().from(automationRules).where(eq(automationRules.id, id));
  return row;
}

/** The enabled rules (of every trigger), in id order (the order they fire in). */
export function enabledRules(db: Db): Promise<RuleRow[]> {
  return db.select().from(automationRules).where(eq(automationRules.enabled, true)).orderBy(asc(automationRules.id));
}

export interface RuleValues {
  name: string;
  enabled: boolean;
  trigger: string;
  idleMinutes: number | null;
  conditions: RuleCondition[];
  actions: Action[];
  maxPerHour: number;
  runAsId: number;
}

export async function insertRule(db: Db, values: RuleValues): Promise<RuleRow> {
  const [row] = await db.insert(automationRules).values(values).returning();
  return row;
}

export async function updateRule(db: Db, id: number, values: Partial<RuleValues>): Promise<RuleRow | undefined> {
  const [row] = await db
    .update(automationRules)
    .set({
      ...values,
      // Enabled now (it was not): it sees the events from now on (the database's clock, as theirs).
      ...(values.enabled
        ? { enabledAt: sql`case when ${automationRules.enabled} then ${automationRules.enabledAt} else now() end` }
        : {}),
      updatedAt: new Date(),
    })
    .where(eq(automationRules.id, id))
    .returning();
  return row;
}

export async function deleteRule(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(automationRules).where(eq(automationRules.id, id)).returning({ id: automationRules.id });
  return rows.length > 0;
}

export const LOG_PAGE_SIZE = 20;

/** A rule's log, newest first, a page at a time. */
export async function listRuns(db: Db, ruleId: number, page: number, outcome?: RuleOutcome) {
  const where = outcome ? and(eq(ruleRuns.ruleId, ruleId), eq(ruleRuns.outcome, outcome)) : eq(ruleRuns.ruleId, ruleId);
  const rows = await db
    .select()
    .from(ruleRuns)
    .where(where)
    .orderBy(desc(ruleRuns.id))
    .limit(LOG_PAGE_SIZE)
    .offset((page - 1) * LOG_PAGE_SIZE);
  const [{ total }] = await db.select({ total: count() }).from(ruleRuns).where(where);
  return { rows, count: total, hasMore: page * LOG_PAGE_SIZE < total };
}

/** The events a rule's conditions did not meet, counted per condition that stopped it. */
export async function notMetOf(db: Db, ruleId: number): Promise<RuleNotMet> {
  const rows = await db
    .select({
      index: ruleSkips.failedCondition,
      count: sql<number>`sum(${ruleSkips.count})::int`,
      lastAt: sql<Date>`max(${ruleSkips.lastAt})`.mapWith(ruleSkips.lastAt),
      since: sql<Date>`min(${ruleSkips.hour})`.mapWith(ruleSkips.hour),
    })
    .from(ruleSkips)
    .where(eq(ruleSkips.ruleId, ruleId))
    .groupBy(ruleSkips.failedCondition)
    .orderBy(asc(ruleSkips.failedCondition));
  const since = rows.reduce<Date | null>((min, r) => (min === null || r.since < min ? r.since : min), null);
  return {
    count: rows.reduce((sum, r) => sum + r.count, 0),
    since: since?.toISOString() ?? null,
    byCondition: rows.map((r) => ({ index: r.index, count: r.count, lastAt: r.lastAt.toISOString() })),
  };
}

/** How long the rules' log (firings and counts) is kept. */
export const RULE_LOG_KEEP_DAYS = 30;

/** The rules' log older than RULE_LOG_KEEP_DAYS goes (housekeeping); how many rows of each. */
export async function pruneRuleLog(db: Db, now: Date): Promise<{ runs: number; skips: number }> {
  const before = new Date(now.getTime() - RULE_LOG_KEEP_DAYS * 86_400_000);
  const runs = await db.delete(ruleRuns).where(lt(ruleRuns.createdAt, before)).returning({ id: ruleRuns.id });
  const skips = await db.delete(ruleSkips).where(lt(ruleSkips.hour, before)).returning({ id: ruleSkips.ruleId });
  return { runs: runs.length, skips: skips.length };
}
