import { and, asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { StaleClaim } from "../../channels/channel-store.js";
import { type InboundLog, type LoggedEvent, MAX_ATTEMPTS } from "../../channels/inbound-log.js";
import type { Db } from "../../db/client.js";
import { inboundEvents } from "../../db/schema.js";
import { withoutNul } from "../../lib/pg-safe.js";

const DONE_KEPT_MS = 24 * 60 * 60 * 1000;

/** The inbound_events table as one connection's inbound log (the channels reach it through their store). */
export function createInboundLog(db: Db, whatsappId: number): InboundLog {
  async function doneAll(ids: number[]) {
    if (ids.length === 0) return;
    await db
      .update(inboundEvents)
      .set({ status: "done", processedAt: new Date(), lockedUntil: null })
      .where(ids.length === 1 ? eq(inboundEvents.id, ids[0]) : inArray(inboundEvents.id, ids));
  }
  return {
    async record(kind, key, payload) {
      const [row] = await db
        .insert(inboundEvents)
        .values({ whatsappId, kind, eventKey: key, payload: withoutNul(payload ?? null) })
        .onConflictDoNothing()
        .returning({ id: inboundEvents.id });
      return row?.id;
    },
    async recordAll(kind, events) {
      if (events.length === 0) return [];
      const rows = await db
        .insert(inboundEvents)
        .values(events.map((e) => ({ whatsappId, kind, eventKey: e.key, payload: withoutNul(e.payload ?? null) })))
        .onConflictDoNothing()
        .returning({ id: inboundEvents.id, key: inboundEvents.eventKey });
      const ids = new Map(rows.map((r) => [r.key, r.id]));
      return events.map((e) => {
        const id = ids.get(e.key);
        // A key repeated in the list: only its first event owns the row.
        ids.delete(e.key);
        return id;
      });
    },
    done: (id) => doneAll([id]),
    doneAll,
    async failed(id, error) {
      await db
        .update(inboundEvents)
        .set({
          attempts: sql`${inboundEvents.attempts} + 1`,
          lastError: String((error as Error)?.message ?? error).slice(0, 500),
          lockedUntil: null,
          status: sql`case when ${inboundEvents.attempts} + 1 >= ${MAX_ATTEMPTS} then 'failed' else 'pending' end`,
        })
        .where(eq(inboundEvents.id, id));
    },
    async pending(limit = 500, options = {}) {
      return db
        .select({
          id: inboundEvents.id,
          kind: inboundEvents.kind,
          payload: inboundEvents.payload,
          attempts: inboundEvents.attempts,
        })
        .from(inboundEvents)
        .where(
          and(
            eq(inboundEvents.whatsappId, whatsappId),
            eq(inboundEvents.status, "pending"),
            options.retriesOnly ? gt(inboundEvents.attempts, 0) : undefined,
            options.afterId === undefined ? undefined : gt(inboundEvents.id, options.afterId),
          ),
        )
        .orderBy(asc(inboundEvents.id))
        .limit(limit);
    },
  };
}

/**
 * Pending events of a kind that nobody is working on (their process died, or the event is older
 * than `olderThanMs`), claimed for a while with SKIP LOCKED so that several processes share them.
 */
export async function claimStale(db: Db, kind: string, options: StaleClaim): Promise<(LoggedEvent & { whatsappId: number })[]> {
  const result = (await db.execute(sql`
    update ${inboundEvents} set locked_until = now() + make_interval(secs => ${options.leaseMs / 1000})
    where id in (
      select id from ${inboundEvents}
      where status = 'pending' and kind = ${kind}
        and received_at < now() - make_interval(secs => ${options.olderThanMs / 1000})
        and (locked_until is null or locked_until < now())
      order by id
      limit ${options.limit}
      for update skip locked
    )
    returning id, whatsapp_id, kind, payload, attempts`)) as unknown as {
    rows: { id: number | string; whatsapp_id: number; kind: string; payload: unknown; attempts: number }[];
  };
  return result.rows
    .map((r) => ({
      id: Number(r.id),
      whatsappId: Number(r.whatsapp_id),
      kind: r.kind,
      payload: r.payload,
      attempts: Number(r.attempts),
    }))
    .sort((a, b) => a.id - b.id);
}

/** How far behind a connection's processing is: the pending count and the oldest pending event's arrival. */
export async function inboundLag(db: Db, whatsappId: number): Promise<{ pending: number; oldestAt: Date | null }> {
  const [row] = await db
    .select({ pending: sql<number>`count(*)::int`, oldestAt: sql<Date | null>`min(${inboundEvents.receivedAt})` })
    .from(inboundEvents)
    .where(and(eq(inboundEvents.whatsappId, whatsappId), eq(inboundEvents.status, "pending")));
  const oldest = row?.oldestAt;
  return { pending: row?.pending ?? 0, oldestAt: oldest ? new Date(oldest) : null };
}

/** Done rows are kept a day (to look into a complaint), then removed. */
export async function purgeProcessed(db: Db, now = new Date()): Promise<void> {
  await db
    .delete(inboundEvents)
    .where(and(eq(inboundEvents.status, "done"), lt(inboundEvents.processedAt, new Date(now.getTime() - DONE_KEPT_MS))));
}
