import { asc, count, eq, ilike, or } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { quickAnswers } from "../../db/schema.js";
import { escapeLike } from "../users/users.repo.js";

export type QuickAnswerRow = typeof quickAnswers.$inferSelect;

export async function listQuickAnswers(db: Db, options: { search: string; limit: number; offset: number }) {
  const pattern = `%${escapeLike(options.search)}%`;
  const where = options.search ? or(ilike(quickAnswers.shortcut, pattern), ilike(quickAnswers.message, pattern)) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(quickAnswers)
      .where(where)
      .orderBy(asc(quickAnswers.shortcut), asc(quickAnswers.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ value: count() }).from(quickAnswers).where(where),
  ]);
  return { rows, count: total.value };
}

export async function findQuickAnswer(db: Db, id: number) {
  const [row] = await db.select().from(quickAnswers).where(eq(quickAnswers.id, id));
  return row as QuickAnswerRow | undefined;
}

export async function insertQuickAnswer(db: Db, values: { shortcut: string; message: string }) {
  const [row] = await db.insert(quickAnswers).values(values).returning();
  return row;
}

export async function updateQuickAnswer(db: Db, id: number, values: { shortcut?: string; message?: string }) {
  const [row] = await db
    .update(quickAnswers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(quickAnswers.id, id))
    .returning();
  return row as QuickAnswerRow | undefined;
}

export async function deleteQuickAnswer(db: Db, id: number) {
  const rows = await db.delete(quickAnswers).where(eq(quickAnswers.id, id)).returning({ id: quickAnswers.id });
  return rows.length > 0;
}
