import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { webhookDeliveries, webhooks } from "../../db/schema.js";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export interface LastDelivery {
  webhookId: number;
  status: string;
  responseStatus: number | null;
  at: Date;
}

export function listWebhooks(db: Db): Promise<WebhookRow[]> {
  return db.select().from(webhooks).orderBy(webhooks.id);
}

export async function findWebhook(db: Db, id: number): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}

export async function insertWebhook(db: Db, values: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [row] = await db.insert(webhooks).values(values).returning();
  return row;
}

export async function updateWebhook(
  db: Db,
  id: number,
  values: Partial<Pick<WebhookRow, "url" | "events" | "enabled" | "secret" | "secretHint">>,
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(webhooks.id, id))
    .returning();
  return row;
}

export async function deleteWebhook(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id });
  return rows.length > 0;
}

/** The newest finished (or tried) delivery of each webhook, for the list. */
export async function lastDeliveries(db: Db, ids: number[]): Promise<Map<number, LastDelivery>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([webhookDeliveries.webhookId], {
      webhookId: webhookDeliveries.webhookId,
      status: webhookDeliveries.status,
      responseStatus: webhookDeliveries.responseStatus,
      at: sql<Date>`coalesce(${webhookDeliveries.lastAttemptAt}, ${webhookDeliveries.createdAt})`.mapWith(
        webhookDeliveries.createdAt,
      ),
    })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.webhookId, ids))
    .orderBy(webhookDeliveries.webhookId, desc(webhookDeliveries.id));
  return new Map(rows.map((r) => [r.webhookId, r]));
}

export async function listDeliveries(db: Db, webhookId: number, page: { status?: string; limit: number; offset: number }) {
  const where = and(
    eq(webhookDeliveries.webhookId, webhookId),
    page.status ? eq(webhookDeliveries.status, page.status) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.id)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, count: total };
}

export async function findDelivery(db: Db, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

/** A failed delivery goes back to the queue, due now, with a fresh retry window. */
export async function requeueFailed(db: Db, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: null, firstAttemptAt: null, lockedUntil: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "failed")))
    .returning();
  return row;
}

export const DISABLED_ERROR = "The webhook is disabled";

/** A webhook turned off: its queued deliveries fail now (an admin may resend them later); one in flight finishes. */
export async function failPending(db: Db, webhookId: number, now: Date): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, error: DISABLED_ERROR })
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.status, "pending"),
        sql`(${webhookDeliveries.lockedUntil} is null or ${webhookDeliveries.lockedUntil} <= ${now.toISOString()}::timestamptz)`,
      ),
    );
}

/** Up to `limit` due deliveries, leased for `leaseMs` so another process (or tick) skips them. */
export async function claimDue(db: Db, now: Date, limit: number, leaseMs: number): Promise<DeliveryRow[]> {
  const until = new Date(now.getTime() + leaseMs);
  const result = await db.execute(sql`
    update webhook_deliveries set locked_until = ${until.toISOString()}::timestamptz
    where id in (
      select id from webhook_deliveries
      where status = 'pending'
        and (next_attempt_at is null or next_attempt_at <= ${now.toISOString()}::timestamptz)
        and (locked_until is null or locked_until <= ${now.toISOString()}::timestamptz)
      order by id
      limit ${limit}
      for update skip locked
    )
    returning id`);
  const ids = (result as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
  if (ids.length === 0) return [];
  return db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids)).orderBy(webhookDeliveries.id);
}

export async function saveDelivery(db: Db, id: number, values: Partial<typeof webhookDeliveries.$inferInsert>): Promise<void> {
  await db.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, id));
}

/** Finished deliveries older than `before` are removed (the log keeps RETENTION_DAYS of history). */
export async function pruneFinished(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(webhookDeliveries)
    .where(
      and(
        sql`${webhookDeliveries.status} <> 'pending'`,
        sql`coalesce(${webhookDeliveries.lastAttemptAt}, ${webhookDeliveries.createdAt}) < ${before.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}
