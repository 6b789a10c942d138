import { and, eq } from "drizzle-orm";
import { auditLog } from "../src/db/schema.js";
import { totp } from "../src/lib/totp.js";
import type { TestUser } from "./factories.js";
import { PASSWORD, uniqueIp } from "./factories.js";
import type { TestApp } from "./harness.js";

/** Issue 22 §5: helpers for the two-factor tests (a real enrolment over HTTP, codes from the secret). */

export interface Enrolled {
  secret: string;
  recoveryCodes: string[];
}

/** The code the authenticator app would show at this instant. */
export const codeAt = (secret: string, at: Date) => totp(secret, at);

/**
 * Enrols a signed-in user through the routes. The clock then moves on one step, so the
 * confirming code (spent, as every accepted code is) is not the one the test signs in with next.
 */
export async function enrolTwoFactor(
  t: TestApp,
  user: Pick<TestUser, "auth">,
  clock: { now(): Date; advance(ms: number): void },
): Promise<Enrolled> {
  const enrol = await t.app.inject({ method: "POST", url: "/api/two-factor/enrol", headers: user.auth });
  if (enrol.statusCode !== 200) throw new Error(`enrol failed: ${enrol.statusCode} ${enrol.body}`);
  const { secret } = enrol.json() as { secret: string };
  const confirm = await t.app.inject({
    method: "POST",
    url: "/api/two-factor/confirm",
    headers: user.auth,
    payload: { code: codeAt(secret, clock.now()) },
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm failed: ${confirm.statusCode} ${confirm.body}`);
  clock.advance(30_000);
  return { secret, recoveryCodes: (confirm.json() as { recoveryCodes: string[] }).recoveryCodes };
}

/** POST /auth/login with the test password, from a fresh address unless one is given. */
export function passwordStep(t: TestApp, email: string, remoteAddress = uniqueIp(), password = PASSWORD) {
  return t.app.inject({ method: "POST", url: "/api/auth/login", remoteAddress, payload: { email, password } });
}

/** POST /auth/login/two-factor. */
export function codeStep(t: TestApp, challenge: string, code: string, remoteAddress = uniqueIp()) {
  return t.app.inject({ method: "POST", url: "/api/auth/login/two-factor", remoteAddress, payload: { challenge, code } });
}

/** The audit rows of one action about one user, oldest first. */
export function auditRows(t: TestApp, action: string, targetId: number) {
  return t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))))
    .orderBy(auditLog.id);
}
