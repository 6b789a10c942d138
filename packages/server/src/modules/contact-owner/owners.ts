import { inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema.js";

/** Issue 23 §5: the names of the owners of these contacts, by user id (one query; none when no contact has one). */
export async function ownersOf(
  db: Db,
  rows: { ownerUserId: number | null }[],
): Promise<Map<number, { id: number; name: string }>> {
  const ids = [...new Set(rows.flatMap((r) => (r.ownerUserId === null ? [] : [r.ownerUserId])))];
  if (!ids.length) return new Map();
  const found = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
  return new Map(found.map((u) => [u.id, u]));
}
