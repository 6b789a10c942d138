import type { ClosingReason } from "@zapdesk/core";
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { closingReasons, tickets } from "../../db/schema.js";

export type ClosingReasonRow = typeof closingReasons.$inferSelect;

export function presentClosingReason(row: ClosingReasonRow): ClosingReason {
  return {
    id: row.id,
    name: row.name,
    asksValue: row.asksValue,
    archived: row.archived,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Active first, then by name. */
export function listClosingReasons(db: Db): Promise<ClosingReasonRow[]> {
  return db
    .select()
    .from(closingReasons)
    .orderBy(asc(closingReasons.archived), asc(sql`lower(${closingReasons.name})`), asc(closingReasons.id));
}

/** `lock`: key share, so the reason cannot be deleted before the caller's close commits. */
export async function findClosingReason(db: Db, id: number, options: { lock?: boolean } = {}) {
  const query = db.select().from(closingReasons).where(eq(closingReasons.id, id));
  const [row] = options.lock ? await query.for("key share") : await query;
  return row as ClosingReasonRow | undefined;
}

export async function insertClosingReason(db: Db, values: { name: string; asksValue: boolean }) {
  const [row] = await db.insert(closingReasons).values(values).returning();
  return row;
}

export async function updateClosingReason(
  db: Db,
  id: number,
  values: Partial<Pick<ClosingReasonRow, "name" | "asksValue" | "archived">>,
) {
  const [row] = await db
    .update(closingReasons)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(closingReasons.id, id))
    .returning();
  return row as ClosingReasonRow | undefined;
}

export async function deleteClosingReason(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(closingReasons).where(eq(closingReasons.id, id)).returning({ id: closingReasons.id });
  return rows.length > 0;
}

/** Whether any ticket carries the reason (tickets_closing_reason_idx). */
export async function closingReasonInUse(db: Db, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(isNotNull(tickets.closingReasonId), eq(tickets.closingReasonId, id)))
    .limit(1);
  return !!row;
}
