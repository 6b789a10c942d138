import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { tickets } from "../../db/schema.js";

/**
 * Issue 24: a search's count stops at this cap ("1,000+"), or at the end of the page asked for when
 * that is further, so a capped count still tells that more pages follow.
 */
export const SEARCH_COUNT_CAP = 1000;

export const countCapOf = (page: { limit: number; offset: number }): number =>
  Math.max(SEARCH_COUNT_CAP, page.offset + page.limit);

/** The count a search answers: up to `cap`, and whether it stopped there. */
export const cappedCount = (total: number, cap: number) => ({ count: Math.min(total, cap), countCapped: total > cap });

/** The tickets matching `where`, counted up to one past `cap` (a page past the end is empty and carries no count). */
export async function countUpTo(db: Db, where: SQL | undefined, cap: number): Promise<number> {
  const matching = db
    .select({ id: tickets.id })
    .from(tickets)
    .where(where)
    .limit(cap + 1);
  const [{ value }] = await db.select({ value: sql<number>`count(*)::int` }).from(sql`(${matching}) as matching`);
  return value;
}
