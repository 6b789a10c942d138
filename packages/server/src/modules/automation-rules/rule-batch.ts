import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { messages, ruleEvents, ruleRuns, ruleSkips, tickets } from "../../db/schema.js";
import type { RuleFacts } from "./conditions.js";

/**
 * Issue 23 §1 (cost of rules): the statements the rules' worker runs per batch of events rather
 * than per event or per rule, so that 20 enabled rules add little to an inbound message.
 */

export type EventRow = typeof ruleEvents.$inferSelect;

/** A claimed event with what its rules' conditions read first: its ticket and its message. */
export interface ClaimedEvent {
  event: EventRow;
  /** The ticket as it was at the claim (null: gone). */
  ticket: RuleFacts["ticket"] | null;
  message: { id: number; body: string; createdAt: Date } | null;
}

/**
 * The oldest queued events, locked (FOR UPDATE SKIP LOCKED: another process takes the next ones),
 * with their tickets and messages: one statement for the batch.
 */
export async function claimEvents(tx: Db, limit: number): Promise<ClaimedEvent[]> {
  // The claim first (limited, then joined): joining before the limit joined the whole backlog.
  const claimed = tx
    .$with("claimed")
    .as(
      tx
        .select()
        .from(ruleEvents)
        .where(isNull(ruleEvents.handledAt))
        .orderBy(asc(ruleEvents.id))
        .limit(limit)
        .for("update", { skipLocked: true }),
    );
  const rows = await tx
    .with(claimed)
    .select({
      event: {
        id: claimed.id,
        kind: claimed.kind,
        ticketId: claimed.ticketId,
        messageId: claimed.messageId,
        tagId: claimed.tagId,
        previous: claimed.previous,
        idleMinutes: claimed.idleMinutes,
        depth: claimed.depth,
        dedupeKey: claimed.dedupeKey,
        handledAt: claimed.handledAt,
        createdAt: claimed.createdAt,
      },
      ticketId: tickets.id,
      status: tickets.status,
      queueId: tickets.queueId,
      userId: tickets.userId,
      whatsappId: tickets.whatsappId,
      contactId: tickets.contactId,
      messageId: messages.id,
      body: messages.body,
      messageAt: messages.createdAt,
    })
    .from(claimed)
    .leftJoin(tickets, eq(tickets.id, claimed.ticketId))
    .leftJoin(messages, eq(messages.id, claimed.messageId))
    .orderBy(asc(claimed.id));
  return rows.map((r) => ({
    event: r.event,
    ticket:
      r.ticketId === null || r.status === null || r.contactId === null
        ? null
        : {
            id: r.ticketId,
            status: r.status,
            queueId: r.queueId,
            userId: r.userId,
            whatsappId: r.whatsappId,
            contactId: r.contactId,
          },
    message:
      r.messageId === null || r.body === null || r.messageAt === null
        ? null
        : { id: r.messageId, body: r.body, createdAt: r.messageAt },
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
    /** One upsert; rows in key order, so two processes lock them in the same order (no deadlock). */
    async flush(tx: Db) {
      if (!all.length) return;
      const values = [...all]
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
