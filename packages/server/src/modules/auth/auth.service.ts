import type { LoginInput, SignupInput, User } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { hashPassword, isImportedHash, verifyPassword } from "../../lib/passwords.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import { type FailureLimiter, type FailurePolicy, type RateLimiter, rateLimitedError } from "../../lib/rate-limiter.js";
import type { Publisher } from "../../realtime/publisher.js";
import { getSettingValue } from "../settings/settings.repo.js";
import { presentUser } from "../users/users.presenter.js";
import * as usersRepo from "../users/users.repo.js";
import type { TokenService } from "./tokens.js";

export interface AuthResult {
  token: string;
  user: User;
  refreshToken: string;
}

// A real hash of a random string: unknown emails cost the same time as wrong passwords.
const DUMMY_HASH = hashPassword(`dummy-${Math.random()}`);

/** The answer to every accepted signup, whether the email was free or not: it reveals no account. */
export const SIGNUP_ANSWER =
  "If this email was not registered yet, the account is ready: sign in with it. If it already had an account, sign in with that account's password or ask your administrator.";

export interface AuthLimiters {
  /** Failed logins per address (an office behind one NAT shares it; successes never count). */
  loginIp: FailureLimiter;
  /** Failed logins per email and address: a growing wait, so another address never locks the user out. */
  loginPair: FailureLimiter;
  /** Every signup attempt, per address and per email. */
  signupIp: RateLimiter;
  signupEmail: RateLimiter;
}

/** Longest wait the right password can meet on an email+address pair, however many failures. */
export const LOGIN_MAX_WAIT_MS = 60 * 1000;

/**
 * The numbers (docs/deploy.md): an address may fail `perIp` times, an email from one address
 * `perEmail` times, before waits start at 1 s and double, up to the window for an address and
 * LOGIN_MAX_WAIT_MS for a pair. Failures are forgotten a window after the last one.
 */
export function loginLimiters(
  limits: { windowMs: number; perIp: number; perEmail: number },
  limiter: (name: string, max: number) => RateLimiter,
  failureLimiter: (name: string, policy: FailurePolicy) => FailureLimiter,
): AuthLimiters {
  const { windowMs, perIp, perEmail } = limits;
  return {
    loginIp: failureLimiter("login-ip", { windowMs, free: perIp, baseDelayMs: 1000, maxDelayMs: windowMs }),
    loginPair: failureLimiter("login-pair", { windowMs, free: perEmail, baseDelayMs: 1000, maxDelayMs: LOGIN_MAX_WAIT_MS }),
    signupIp: limiter("signup-ip", perIp),
    signupEmail: limiter("signup-email", perEmail),
  };
}

export function createAuthService(deps: { db: Db; tokens: TokenService; events: Publisher; limiters: AuthLimiters }) {
  const { db, tokens, limiters } = deps;

  async function sessionFor(userId: number): Promise<AuthResult> {
    const user = await usersRepo.findUserById(db, userId);
    if (!user) throw new AppError("ERR_SESSION_EXPIRED");
    return {
      token: await tokens.signAccess(user.id),
      user: presentUser(user),
      refreshToken: await tokens.issueRefresh(user.id),
    };
  }

  return {
    /**
     * Only failures count. An address or an email+address pair that failed too often waits
     * before its next attempt is even checked; the wait on a pair is short and grows, and a
     * failure elsewhere never delays the right password from another address.
     */
    async login(input: LoginInput, ip: string): Promise<AuthResult> {
      const pair = `${input.email.toLowerCase()}|${ip}`;
      const wait = Math.max(await limiters.loginIp.waitMs(ip), await limiters.loginPair.waitMs(pair));
      if (wait > 0) throw rateLimitedError(wait);
      const row = await usersRepo.findUserByEmail(db, input.email);
      const ok = await verifyPassword(row?.passwordHash ?? (await DUMMY_HASH), input.password);
      if (!row || !ok) {
        await Promise.all([limiters.loginIp.fail(ip), limiters.loginPair.fail(pair)]);
        throw new AppError("ERR_INVALID_CREDENTIALS");
      }
      await limiters.loginPair.reset(pair);
      // Issue 21: a bcrypt hash carried over from Whaticket is replaced by our own on its first success.
      if (isImportedHash(row.passwordHash)) {
        await usersRepo.updateUser(db, row.id, { passwordHash: await hashPassword(input.password) });
      }
      return sessionFor(row.id);
    },

    async refresh(refreshToken: string | undefined): Promise<AuthResult> {
      if (!refreshToken) throw new AppError("ERR_SESSION_EXPIRED");
      const rotated = await tokens.rotateRefresh(refreshToken);
      const user = await usersRepo.findUserById(db, rotated.userId);
      if (!user) throw new AppError("ERR_SESSION_EXPIRED");
      return { token: await tokens.signAccess(user.id), user: presentUser(user), refreshToken: rotated.refreshToken };
    },

    /**
     * Ends the session of this refresh cookie and drops the user's sockets, on every process
     * (their other sessions' sockets reconnect by themselves with their own refresh token).
     */
    async logout(refreshToken: string | undefined, accessToken: string | undefined): Promise<void> {
      let userId = refreshToken ? await tokens.revokeRefresh(refreshToken) : undefined;
      if (userId === undefined && accessToken) userId = await tokens.verifyAccess(accessToken).catch(() => undefined);
      if (userId !== undefined) deps.events.endSessions(userId);
    },

    /**
     * Signup always creates an agent (profile `user`), and only while userCreation is enabled.
     * A taken email gets the same answer, after the same password hash, and nothing is created.
     */
    async signup(input: SignupInput, ip: string): Promise<{ message: string }> {
      const [byIp, byEmail] = await Promise.all([limiters.signupIp.hit(ip), limiters.signupEmail.hit(input.email.toLowerCase())]);
      if (!byIp.allowed || !byEmail.allowed) throw rateLimitedError(Math.max(byIp.retryAfterMs, byEmail.retryAfterMs));
      if ((await getSettingValue(db, "userCreation")) !== "enabled") throw new AppError("ERR_USER_CREATION_DISABLED");
      const passwordHash = await hashPassword(input.password);
      if (await usersRepo.findUserByEmail(db, input.email)) return { message: SIGNUP_ANSWER };
      const row = await usersRepo
        .insertUser(db, { name: input.name, email: input.email, passwordHash, profile: "user" })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) return undefined;
          throw error;
        });
      if (row) deps.events.publish("user", { action: "create", user: presentUser({ ...row, queues: [] }) });
      return { message: SIGNUP_ANSWER };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
