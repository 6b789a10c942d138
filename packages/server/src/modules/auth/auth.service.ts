import {
  type Actor,
  can,
  type LoginInput,
  type SessionInfo,
  type SignupInput,
  type TwoFactorChallenge,
  type User,
} from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { hashPassword, isImportedHash, verifyPassword } from "../../lib/passwords.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import { type FailureLimiter, type FailurePolicy, type RateLimiter, rateLimitedError } from "../../lib/rate-limiter.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { getSettingValue } from "../settings/settings.repo.js";
import type { TwoFactorService } from "../two-factor/two-factor.service.js";
import { presentUser } from "../users/users.presenter.js";
import * as usersRepo from "../users/users.repo.js";
import type { SessionOrigin, TokenService } from "./tokens.js";

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
  /** Issue 22 §5: wrong second-factor codes per user (with `loginIp` per address). */
  twoFactorUser: FailureLimiter;
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
    twoFactorUser: failureLimiter("two-factor-user", { windowMs, free: perEmail, baseDelayMs: 1000, maxDelayMs: windowMs }),
  };
}

export function createAuthService(deps: {
  db: Db;
  tokens: TokenService;
  events: Publisher;
  limiters: AuthLimiters;
  twoFactor: Pick<TwoFactorService, "nextStep" | "challenge" | "blocks">;
}) {
  const { db, tokens, limiters } = deps;

  /** A new session (issue 22 §5), its first refresh token and the sign-in's audit row, in one transaction. */
  async function sessionFor(userId: number, origin: SessionOrigin): Promise<AuthResult> {
    const user = await usersRepo.findUserById(db, userId);
    if (!user) throw new AppError("ERR_SESSION_EXPIRED");
    const { sessionId, refreshToken } = await db.transaction(async (tx) => {
      const sessionId = await tokens.createSession(user.id, origin, tx);
      const refreshToken = await tokens.issueRefresh(user.id, sessionId, tx);
      await recordAudit(tx, {
        action: "auth.login",
        targetType: "user",
        targetId: user.id,
        who: { userId: user.id, name: user.name, email: user.email },
      });
      return { sessionId, refreshToken };
    });
    return { token: await tokens.signAccess(user.id, sessionId), user: presentUser(user), refreshToken };
  }

  return {
    startSession: sessionFor,

    /**
     * Only failures count. An address or an email+address pair that failed too often waits
     * before its next attempt is even checked; the wait on a pair is short and grows, and a
     * failure elsewhere never delays the right password from another address.
     */
    async login(input: LoginInput, ip: string, userAgent = ""): Promise<AuthResult | TwoFactorChallenge> {
      const pair = `${input.email.toLowerCase()}|${ip}`;
      const wait = Math.max(await limiters.loginIp.waitMs(ip), await limiters.loginPair.waitMs(pair));
      if (wait > 0) throw rateLimitedError(wait);
      const row = await usersRepo.findUserByEmail(db, input.email);
      const ok = await verifyPassword(row?.passwordHash ?? (await DUMMY_HASH), input.password);
      if (!row || !ok) {
        await Promise.all([limiters.loginIp.fail(ip), limiters.loginPair.fail(pair)]);
        // The attempted email, never the password; the user it names, if any.
        await recordAudit(db, {
          action: "auth.loginFailed",
          targetType: row ? "user" : undefined,
          targetId: row?.id,
          details: { attemptedEmail: input.email.slice(0, 200) },
          who: { userId: null, email: input.email.slice(0, 200) },
        });
        throw new AppError("ERR_INVALID_CREDENTIALS");
      }
      await limiters.loginPair.reset(pair);
      // Issue 21: a bcrypt hash carried over from Whaticket is replaced by our own on its first success.
      let user = row;
      if (isImportedHash(row.passwordHash)) {
        user = (await usersRepo.updateUser(db, row.id, { passwordHash: await hashPassword(input.password) })) ?? row;
      }
      // Issue 22 §5: with a second factor (or one the setting requires), no token yet: a challenge.
      const step = await deps.twoFactor.nextStep(user);
      if (step !== "none") return deps.twoFactor.challenge(user, step);
      return sessionFor(row.id, { ip, userAgent });
    },

    async refresh(refreshToken: string | undefined): Promise<AuthResult> {
      if (!refreshToken) throw new AppError("ERR_SESSION_EXPIRED");
      const rotated = await tokens.rotateRefresh(refreshToken);
      const user = await usersRepo.findUserById(db, rotated.userId);
      if (!user) throw new AppError("ERR_SESSION_EXPIRED");
      // Issue 22 §5: once the setting requires a second factor this user lacks, the session ends;
      // signing in again leads through the enrolment.
      if (await deps.twoFactor.blocks(user)) {
        await tokens.endSession(rotated.sessionId, user.id);
        deps.events.endSessions(user.id, [rotated.sessionId]);
        throw new AppError("ERR_TOTP_REQUIRED");
      }
      return {
        token: await tokens.signAccess(user.id, rotated.sessionId),
        user: presentUser(user),
        refreshToken: rotated.refreshToken,
      };
    },

    /**
     * Ends the session of this refresh cookie (or of the access token, without one): its access
     * tokens are refused at once and its sockets dropped, on every process. The user's other
     * sessions go on.
     */
    async logout(refreshToken: string | undefined, accessToken: string | undefined): Promise<void> {
      let ended = refreshToken ? await tokens.revokeRefresh(refreshToken) : undefined;
      if (!ended && accessToken) {
        const session = await tokens.verifyAccessSession(accessToken).catch(() => undefined);
        const row = session ? await tokens.endSession(session.sessionId, session.userId) : undefined;
        ended = row ? { userId: row.userId, sessionId: row.id } : undefined;
      }
      if (!ended) return;
      const user = await usersRepo.findUserById(db, ended.userId);
      await recordAudit(db, {
        action: "auth.logout",
        targetType: "session",
        targetId: ended.sessionId,
        who: { userId: ended.userId, name: user?.name, email: user?.email },
      });
      deps.events.endSessions(ended.userId, [ended.sessionId]);
    },

    /** Issue 22 §5: the caller's own sessions, the current one flagged. */
    async sessions(userId: number, currentId: string | null): Promise<SessionInfo[]> {
      const rows = await tokens.listSessions(userId);
      return rows.map((row) => ({
        id: row.id,
        userAgent: row.userAgent,
        ip: row.ip,
        createdAt: row.createdAt.toISOString(),
        lastSeenAt: row.lastSeenAt.toISOString(),
        current: row.id === currentId,
      }));
    },

    /** One of the caller's own sessions ends (another device, or this one): at once, sockets included. */
    async endSession(actor: Actor, sessionId: string): Promise<void> {
      const row = await db.transaction(async (tx) => {
        const row = await tokens.endSession(sessionId, actor.id, tx);
        if (!row) throw new AppError("ERR_NO_SESSION_FOUND");
        await recordAudit(tx, { action: "session.ended", targetType: "session", targetId: sessionId });
        return row;
      });
      deps.events.endSessions(row.userId, [row.id]);
    },

    /** An admin (`sessions:manageAll`) ends every session of a user (a lost laptop, a leaving colleague). */
    async endAllSessions(actor: Actor, userId: number): Promise<number> {
      if (!can(actor, "sessions:manageAll")) throw new AppError("ERR_NO_PERMISSION");
      const ended = await db.transaction(async (tx) => {
        if (!(await usersRepo.findUserById(tx, userId))) throw new AppError("ERR_NO_USER_FOUND");
        const ended = await tokens.endSessionsOf(userId, { executor: tx });
        await recordAudit(tx, {
          action: "session.endedAll",
          targetType: "user",
          targetId: userId,
          details: { ended: ended.length },
        });
        return ended;
      });
      deps.events.endSessions(userId, ended);
      return ended.length;
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
