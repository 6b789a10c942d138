/**
 * `npm run admin:reset-password -- <email>`: gives a user (an administrator who lost the password
 * printed at the first start, say) a new random password and prints it once. It reaches the
 * install's database the way `npm run backup` does (maintenance.ts): DATABASE_URL, else the
 * embedded PostgreSQL in DATA_DIR, joined while a Zapdesk runs on it or started for the command.
 * The user's sessions end: every refresh token is deleted with the new password, in one transaction.
 * With `--two-factor`, the user's two-factor sign-in is turned off too (issue 22 §5: the only admin
 * lost the phone and the recovery codes), recorded in the audit trail.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { refreshTokens, users } from "../db/schema.js";
import { hashPassword } from "../lib/passwords.js";
import { recordAudit } from "../modules/audit/audit.js";
import { deleteTwoFactor } from "../modules/two-factor/two-factor.repo.js";

/** The new password of the user with that email (any case), or undefined when there is none. */
export async function resetPassword(
  db: Db,
  email: string,
  options: { twoFactor?: boolean } = {},
): Promise<{ password: string; name: string; twoFactorWasOn?: boolean } | undefined> {
  const password = randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(sql`lower(${users.email}) = lower(${email.trim()})`)
      .returning({ id: users.id, name: users.name });
    if (!user) return undefined;
    await tx.delete(refreshTokens).where(eq(refreshTokens.userId, user.id));
    if (!options.twoFactor) return { password, name: user.name };
    const twoFactorWasOn = await deleteTwoFactor(tx, user.id);
    if (twoFactorWasOn) {
      await recordAudit(tx, {
        action: "twoFactor.reset",
        targetType: "user",
        targetId: user.id,
        details: { via: "command line" },
        who: { userId: null, name: "reset-password (command line)" },
      });
    }
    return { password, name: user.name, twoFactorWasOn };
  });
}
