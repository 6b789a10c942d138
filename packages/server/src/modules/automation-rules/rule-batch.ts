import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { automationRules, type ruleEvents, ruleRuns, ruleSkips } from "../../db/schema.js";
import type { RuleFacts } from "./conditions.js";

/**
 * Issue 23 §1 (cost of rules): the statements the rules' worker runs per batch of events rather
 * than per event or per rule, so that 20 enabled rules add little to an inbound message.
 */

export type EventRow = typeof ruleEvents.$inferSelect;

/** A queued event as the worker reads it. */
export type QueuedEvent = Omit<EventRow, "handledAt" | "dedupeKey">;

/** A claimed event with what its rules' conditions read first: its ticket and its message. */
export interface ClaimedEvent {
  event: QueuedEvent;
  /** The ticket as it was at the claim (null: gone). */
  ticket: RuleFacts["ticket"] | null;
  message: { id: number; body: string; createdAt: Date } | null;
}

interface ClaimRow {
  id: string | number;
  kind: string;
  ticket_id: number;
  message_id: string | number | null;
  tag_id: number | null;
  previous: Record<string, unknown> | string | null;
  idle_minutes: number | null;
  depth: number;
  created_at: string | Date;
  t_id: number | null;
  status: string | null;
  queue_id: number | null;
  user_id: number | null;
  whatsapp_id: number | null;
  contact_id: number | null;
  body: string | null;
  message_at: string | Date | null;
}

const toDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/**
 * The oldest queued events, locked (FOR UPDATE SKIP LOCKED: another process takes the next ones),
 * with their tickets and messages: one statement for the batch. The claim is limited first, then
 * joined (joined before the limit, each claim joined and sorted the whole backlog). Plain SQL, mapped
 * here: the query builder's row mapping was the worker's largest cost per event.
 */
export async function claimEvents(tx: Db, limit: number): Promise<ClaimedEvent[]> {
  const result = (await tx.execute(sql`
    with claimed as (
      select id, kind, ticket_id, message_id, tag_id, previous, idle_minutes, depth, created_at
      from rule_events where handled_at is null order by id limit ${limit} for update skip locked
    )
    select c.id, c.kind, c.ticket_id, c.message_id, c.tag_id, c.previous, c.idle_minutes, c.depth, c.created_at,
      t.id as t_id, t.status, t.queue_id, t.user_id, t.whatsapp_id, t.contact_id, m.body, m.created_at as message_at
    from claimed c
    left join tickets t on t.id = c.ticket_id
    left join messages m on m.id = c.message_id
    order by c.id`)) as unknown as { rows: ClaimRow[] };
  return result.rows.map((r) => ({
    event: {
      id: Number(r.id),
      kind: r.kind,
      ticketId: r.ticket_id,
      messageId: r.message_id === null ? null : Number(r.message_id),
      tagId: r.tag_id,
      previous: typeof r.previous === "string" ? (JSON.parse(r.previous) as Record<string, unknown>) : r.previous,
      idleMinutes: r.idle_minutes,
      depth: r.depth,
      createdAt: toDate(r.created_at),
    },
    ticket:
      r.t_id === null || r.status === null || r.contact_id === null
        ? null
        : {
            id: r.t_id,
            status: r.status,
            queueId: r.queue_id,
            userId: r.user_id,
            whatsappId: r.whatsapp_id,
            contactId: r.contact_id,
          },
    message:
      r.message_id === null || r.body === null || r.message_at === null
        ? null
        : { id: Number(r.message_id), body: r.body, createdAt: toDate(r.message_at) },
  }));
}

/** Kinds whose handled events nothing reads again (the dry run reads the messages): deleted, not kept. */
const DROPPED_WHEN_HANDLED = ["messageReceived", "messageSent"];

/**
 * The batch is handled: message events are deleted (cheaper than an update that adds index entries);
 * the others are kept, marked (the dry run reads them; a no-reply event's key stops a second firing).
 */
export async function markHandled(tx: Db, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const list = sql`${sql.param(ids)}::bigint[]`;
  const dropped = sql`array[${sql.join(
    DROPPED_WHEN_HANDLED.map((k) => sql`${k}`),
    sql`, `,
  )}]::text[]`;
  await tx.execute(sql`
    with dropped as (delete from rule_events where id = any(${list}) and kind = any(${dropped}))
    update rule_events set handled_at = now() where id = any(${list}) and not (kind = any(${dropped}))`);
}

/** How many times each rule did its actions on the ticket in the last hour (one statement for all). */
export async function firedLastHour(tx: Db, ticketId: number, ruleIds: number[]): Promise<Map<number, number>> {
  const rows = await tx
    .select({ ruleId: ruleRuns.ruleId, fired: sql<number>`count(*)::int` })
    .from(ruleRuns)
    .where(
      and(
        inArray(ruleRuns.ruleId, ruleIds),
        eq(ruleRuns.ticketId, ticketId),
        eq(ruleRuns.outcome, "done"),
        gt(ruleRuns.createdAt, sql`now() - interval '1 hour'`),
      ),
    )
    .groupBy(ruleRuns.ruleId);
  return new Map(rows.map((r) => [r.ruleId, r.fired]));
}

const HOUR_MS = 3_600_000;

/** Events that did not meet a rule's conditions, counted in memory and written once per batch. */
export function skipCounter() {
  type Entry = { ruleId: number; hour: number; failedCondition: number; count: number; lastAt: Date };
  // Per hour, then per rule and condition (a number: no key string built per rule and event).
  const hours = new Map<number, Map<number, Entry>>();
  const all: Entry[] = [];
  return {
    add(ruleId: number, failedCondition: number, at: Date) {
      const hour = Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;
      let counts = hours.get(hour);
      if (!counts) {
        counts = new Map();
        hours.set(hour, counts);
      }
      const key = ruleId * 1024 + failedCondition;
      const entry = counts.get(key);
      if (!entry) {
        const created = { ruleId, hour, failedCondition, count: 1, lastAt: at };
        counts.set(key, created);
        all.push(created);
      } else {
        entry.count += 1;
        if (at > entry.lastAt) entry.lastAt = at;
      }
    },
    /**
     * One upsert; rows in key order, so two processes lock them in the same order (no deadlock).
     * `onlyExistingRules`: counts of a rule deleted since are dropped (the rows that remain are
     * locked against deletion until the transaction ends).
     */
    async flush(tx: Db, options: { onlyExistingRules?: boolean } = {}) {
      let entries = all;
      if (options.onlyExistingRules && entries.length) {
        const ids = [...new Set(entries.map((e) => e.ruleId))];
        const kept = await tx
          .select({ id: automationRules.id })
          .from(automationRules)
          .where(inArray(automationRules.id, ids))
          .for("key share");
        const existing = new Set(kept.map((r) => r.id));
        entries = entries.filter((e) => existing.has(e.ruleId));
      }
      if (!entries.length) return;
      const values = [...entries]
        .sort((a, b) => a.ruleId - b.ruleId || a.hour - b.hour || a.failedCondition - b.failedCondition)
        .map((v) => ({
          ruleId: v.ruleId,
          hour: new Date(v.hour),
          failedCondition: v.failedCondition,
          count: v.count,
          lastAt: v.lastAt,
        }));
      await tx
        .insert(ruleSkips)
        .values(values)
        .onConflictDoUpdate({
          target: [ruleSkips.ruleId, ruleSkips.hour, ruleSkips.failedCondition],
          set: {
            count: sql`${ruleSkips.count} + excluded.count`,
            lastAt: sql`greatest(${ruleSkips.lastAt}, excluded.last_at)`,
          },
        });
    },
  };
}
