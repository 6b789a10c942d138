import { and, count, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { userRecoveryCodes, userTwoFactor } from "../../db/schema.js";

export type TwoFactorRow = typeof userTwoFactor.$inferSelect;

export async function findTwoFactor(db: Db, userId: number): Promise<TwoFactorRow | undefined> {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  return row;
}

/** Whether the user has a confirmed second factor. */
export async function hasTwoFactor(db: Db, userId: number): Promise<boolean> {
  const row = await findTwoFactor(db, userId);
  return !!row?.confirmedAt;
}

/** A new, unconfirmed secret (replacing an earlier unconfirmed one); never overwrites a confirmed one. */
export async function savePendingSecret(db: Db, userId: number, sealedSecret: string): Promise<boolean> {
  const rows = await db
    .insert(userTwoFactor)
    .values({ userId, secret: sealedSecret })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { secret: sealedSecret, lastStep: null, createdAt: new Date() },
      setWhere: isNull(userTwoFactor.confirmedAt),
    })
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

/**
 * Records that a code of `step` was accepted, unless this step (or a later one) already was: the
 * condition is in the UPDATE, so two requests racing with one code cannot both pass.
 */
export async function consumeStep(
  db: Db,
  userId: number,
  step: number,
  options: { sealedSecret: string; confirm?: Date },
): Promise<boolean> {
  const rows = await db
    .update(userTwoFactor)
    .set({ lastStep: step, ...(options.confirm ? { confirmedAt: options.confirm } : {}) })
    .where(
      and(
        eq(userTwoFactor.userId, userId),
        // The secret the code was checked against is still the stored one (no enrolment in between).
        eq(userTwoFactor.secret, options.sealedSecret),
        options.confirm ? isNull(userTwoFactor.confirmedAt) : isNotNull(userTwoFactor.confirmedAt),
        or(isNull(userTwoFactor.lastStep), lt(userTwoFactor.lastStep, step)),
      ),
    )
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

/** Removes the second factor and its recovery codes; returns whether one was on. */
export async function deleteTwoFactor(db: Db, userId: number): Promise<boolean> {
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  const rows = await db
    .delete(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId))
    .returning({ confirmedAt: userTwoFactor.confirmedAt });
  return !!rows[0]?.confirmedAt;
}

export async function replaceRecoveryCodes(db: Db, userId: number, hashes: string[]): Promise<void> {
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await db.insert(userRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

/** Marks an unused code used; false when it is unknown or was used before. */
export async function useRecoveryCode(db: Db, userId: number, hash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(userRecoveryCodes)
    .set({ usedAt: at })
    .where(and(eq(userRecoveryCodes.userId, userId), eq(userRecoveryCodes.codeHash, hash), isNull(userRecoveryCodes.usedAt)))
    .returning({ id: userRecoveryCodes.id });
  return rows.length > 0;
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return row?.value ?? 0;
}

/** The users whose second factor is on. */
export async function enabledUserIds(db: Db): Promise<number[]> {
  const rows = await db.select({ userId: userTwoFactor.userId }).from(userTwoFactor).where(isNotNull(userTwoFactor.confirmedAt));
  return rows.map((r) => r.userId).sort((a, b) => a - b);
}
