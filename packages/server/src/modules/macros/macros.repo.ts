import type { Action, Macro } from "@zapdesk/core";
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { macros } from "../../db/schema.js";

export type MacroRow = typeof macros.$inferSelect;

export function presentMacro(row: MacroRow): Macro {
  return {
    id: row.id,
    name: row.name,
    shared: row.shared,
    ownerId: row.ownerId,
    actions: row.actions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The shared macros and the user's own, shared first, then by name. */
export function listMacros(db: Db, userId: number): Promise<MacroRow[]> {
  return db
    .select()
    .from(macros)
    .where(or(isNull(macros.ownerId), eq(macros.ownerId, userId)))
    .orderBy(asc(macros.ownerId), asc(sql`lower(${macros.name})`), asc(macros.id));
}

/** A macro the user may see: shared, or their own. */
export async function findVisibleMacro(db: Db, id: number, userId: number): Promise<MacroRow | undefined> {
  const [row] = await db
    .select()
    .from(macros)
    .where(and(eq(macros.id, id), or(isNull(macros.ownerId), eq(macros.ownerId, userId))));
  return row;
}

export async function insertMacro(db: Db, values: { name: string; ownerId: number | null; actions: Action[] }) {
  const [row] = await db
    .insert(macros)
    .values({ ...values, shared: values.ownerId === null })
    .returning();
  return row;
}

export async function updateMacro(db: Db, id: number, values: { name?: string; ownerId?: number | null; actions?: Action[] }) {
  const shared = values.ownerId === undefined ? {} : { shared: values.ownerId === null };
  const [row] = await db
    .update(macros)
    .set({ ...values, ...shared, updatedAt: new Date() })
    .where(eq(macros.id, id))
    .returning();
  return row as MacroRow | undefined;
}

export async function deleteMacro(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(macros).where(eq(macros.id, id)).returning({ id: macros.id });
  return rows.length > 0;
}
