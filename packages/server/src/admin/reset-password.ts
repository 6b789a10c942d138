/**
 * `npm run admin:reset-password -- <email>`: gives a user (an administrator who lost the password
 * printed at the first start, say) a new random password and prints it once. It reaches the
 * install's database the way `npm run backup` does (maintenance.ts): DATABASE_URL, else the
 * embedded PostgreSQL in DATA_DIR, joined while a Zapdesk runs on it or started for the command.
 * The user's sessions end: every refresh token is deleted with the new password, in one transaction.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { refreshTokens, users } from "../db/schema.js";
import { hashPassword } from "../lib/passwords.js";

/** The new password of the user with that email (any case), or undefined when there is none. */
export async function resetPassword(db: Db, email: string): Promise<{ password: string; name: string } | undefined> {
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
    return { password, name: user.name };
  });
}
