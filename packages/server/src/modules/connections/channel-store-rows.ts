import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { AuthRows, LeaseRows } from "../../channels/channel-store.js";
import type { Db } from "../../db/client.js";
import { whatsappAuth, whatsapps } from "../../db/schema.js";

/** The whatsapp_auth rows of one connection (Baileys' auth state, one row per key). */
export function authRows(db: Db, whatsappId: number): AuthRows {
  const mine = eq(whatsappAuth.whatsappId, whatsappId);

  async function upsert(executor: Db, rows: { key: string; value: unknown }[]) {
    if (rows.length === 0) return;
    await executor
      .insert(whatsappAuth)
      .values(rows.map((row) => ({ whatsappId, key: row.key, value: row.value })))
      .onConflictDoUpdate({
        target: [whatsappAuth.whatsappId, whatsappAuth.key],
        set: { value: sql`excluded.value`, updatedAt: sql`now()` },
      });
  }

  return {
    async read(keys) {
      const values = new Map<string, unknown>();
      if (keys.length === 0) return values;
      const rows = await db
        .select({ key: whatsappAuth.key, value: whatsappAuth.value })
        .from(whatsappAuth)
        .where(and(mine, inArray(whatsappAuth.key, keys)));
      for (const row of rows) values.set(row.key, row.value);
      return values;
    },
    async write(upserts, deletes = []) {
      if (deletes.length === 0) return upsert(db, upserts);
      await db.transaction(async (tx) => {
        await upsert(tx, upserts);
        await tx.delete(whatsappAuth).where(and(mine, inArray(whatsappAuth.key, deletes)));
      });
    },
    async clear(options = {}) {
      const except = options.except;
      await db.delete(whatsappAuth).where(except === undefined ? mine : and(mine, sql`${whatsappAuth.key} <> ${except}`));
    },
  };
}

/** The lease columns of the whatsapps table (lease_owner, lease_expires_at), timed by the database's clock. */
export function leaseRows(db: Db): LeaseRows {
  const expiry = (ttlMs: number) => sql`now() + ${ttlMs} * interval '1 millisecond'`;
  const expired = lt(whatsapps.leaseExpiresAt, sql`now()`);
  return {
    async renew(owner, ttlMs) {
      const rows = await db
        .update(whatsapps)
        .set({ leaseExpiresAt: expiry(ttlMs) })
        .where(eq(whatsapps.leaseOwner, owner))
        .returning({ id: whatsapps.id });
      return rows.map((row) => row.id);
    },
    async orphans() {
      const rows = await db
        .select({ id: whatsapps.id })
        .from(whatsapps)
        .where(or(isNull(whatsapps.leaseOwner), expired));
      return rows.map((row) => row.id);
    },
    async acquire(id, owner, ttlMs, force) {
      const free = or(isNull(whatsapps.leaseOwner), eq(whatsapps.leaseOwner, owner), expired);
      const rows = await db
        .update(whatsapps)
        .set({ leaseOwner: owner, leaseExpiresAt: expiry(ttlMs) })
        .where(force ? eq(whatsapps.id, id) : and(eq(whatsapps.id, id), free))
        .returning({ id: whatsapps.id });
      return rows.length > 0;
    },
    async release(id, owner) {
      await db
        .update(whatsapps)
        .set({ leaseOwner: null, leaseExpiresAt: null })
        .where(and(eq(whatsapps.id, id), eq(whatsapps.leaseOwner, owner)));
    },
    async holds(id, owner) {
      const rows = await db
        .select({ id: whatsapps.id })
        .from(whatsapps)
        .where(and(eq(whatsapps.id, id), eq(whatsapps.leaseOwner, owner), sql`${whatsapps.leaseExpiresAt} > now()`));
      return rows.length > 0;
    },
  };
}
