import { createHash, randomBytes } from "node:crypto";
import {
  type Actor,
  can,
  isTotpCode,
  RECOVERY_CODE_COUNT,
  type RecoveryCodes,
  type TwoFactorChallenge,
  type TwoFactorDisableInput,
  type TwoFactorEnrolment,
  type TwoFactorStatus,
  twoFactorRequiredFor,
} from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";
import { verifyPassword } from "../../lib/passwords.js";
import { type FailureLimiter, rateLimitedError } from "../../lib/rate-limiter.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { matchTotp, newTotpSecret, otpauthUri } from "../../lib/totp.js";
import { recordAudit } from "../audit/audit.js";
import { getSettingValue } from "../settings/settings.repo.js";
import * as usersRepo from "../users/users.repo.js";
import type { ChallengePurpose, Challenges } from "./challenges.js";
import * as repo from "./two-factor.repo.js";

export interface TwoFactorLimiters {
  /** Wrong codes per user, from anywhere: the password is already known to whoever types them. */
  user: FailureLimiter;
  /** Failures per address, shared with the password's (auth.service `loginIp`). */
  ip: FailureLimiter;
}

type UserRow = usersRepo.UserRow;

/** "abcde-fghij": ten base32 letters and digits, 50 random bits. */
function newRecoveryCode(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b & 31]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const recoveryHash = (userId: number, code: string) =>
  createHash("sha256")
    .update(`${userId}:${code.toLowerCase().replace(/[^a-z2-7]/g, "")}`)
    .digest("hex");

/**
 * Issue 22 §5: two-factor sign-in with an authenticator app (lib/totp.ts) and one-time recovery
 * codes. The secret is sealed at rest with ENCRYPTION_KEY; a code is accepted once (its time step
 * is remembered); wrong codes wait like wrong passwords and each one is in the audit trail.
 */
export function createTwoFactorService(deps: {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  challenges: Challenges;
  limiters: TwoFactorLimiters;
  issuer?: string;
}) {
  const { db, clock, secrets, challenges, limiters } = deps;
  const issuer = deps.issuer ?? "Zapdesk";

  async function required(user: Pick<UserRow, "profile">): Promise<boolean> {
    return twoFactorRequiredFor(await getSettingValue(db, "twoFactorRequired"), user.profile);
  }

  async function userRow(id: number): Promise<UserRow> {
    const row = await usersRepo.findUserById(db, id);
    if (!row) throw new AppError("ERR_NO_USER_FOUND");
    return row;
  }

  function openSecret(sealed: string): string {
    try {
      return secrets.open(sealed);
    } catch {
      throw new AppError("ERR_TOTP_INVALID", {
        message: "The stored secret cannot be read (was ENCRYPTION_KEY changed?): an administrator can reset it.",
      });
    }
  }

  /** A pending secret for this user (a new one each call until confirmed). */
  async function startEnrolment(user: UserRow): Promise<TwoFactorEnrolment> {
    const secret = newTotpSecret();
    if (!(await repo.savePendingSecret(db, user.id, secrets.seal(secret)))) throw new AppError("ERR_TOTP_ALREADY_ENABLED");
    return { secret, otpauthUri: otpauthUri({ secret, account: user.email, issuer }) };
  }

  async function assertNotWaiting(userId: number, ip: string) {
    const wait = Math.max(await limiters.user.waitMs(String(userId)), await limiters.ip.waitMs(ip));
    if (wait > 0) throw rateLimitedError(wait);
  }

  async function failed(user: UserRow, ip: string, via: string): Promise<never> {
    await Promise.all([limiters.user.fail(String(user.id)), limiters.ip.fail(ip)]);
    await recordAudit(db, {
      action: "auth.twoFactorFailed",
      targetType: "user",
      targetId: user.id,
      details: { via },
      who: { userId: user.id, name: user.name, email: user.email },
    });
    throw new AppError("ERR_TOTP_INVALID");
  }

  /** A code from the app (accepted once) or, where allowed, an unused recovery code. */
  async function checkCode(user: UserRow, code: string, ip: string, via: string, recovery = true): Promise<"totp" | "recovery"> {
    await assertNotWaiting(user.id, ip);
    const row = await repo.findTwoFactor(db, user.id);
    if (!row?.confirmedAt) throw new AppError("ERR_TOTP_NOT_ENABLED");
    let used: "totp" | "recovery" | undefined;
    if (isTotpCode(code)) {
      const step = matchTotp(openSecret(row.secret), code.replace(/\s+/g, ""), clock.now(), row.lastStep);
      if (step !== null && (await repo.consumeStep(db, user.id, step, { sealedSecret: row.secret }))) used = "totp";
    } else if (recovery && (await repo.useRecoveryCode(db, user.id, recoveryHash(user.id, code), clock.now()))) {
      used = "recovery";
      await recordAudit(db, {
        action: "twoFactor.recoveryCodeUsed",
        targetType: "user",
        targetId: user.id,
        details: { left: await repo.recoveryCodesLeft(db, user.id) },
        who: { userId: user.id, name: user.name, email: user.email },
      });
    }
    if (!used) return failed(user, ip, via);
    await limiters.user.reset(String(user.id));
    return used;
  }

  /** Confirms a pending secret with its first code; the recovery codes come back once. */
  async function confirmEnrolment(user: UserRow, code: string, ip: string, via: string): Promise<RecoveryCodes> {
    await assertNotWaiting(user.id, ip);
    const row = await repo.findTwoFactor(db, user.id);
    if (row?.confirmedAt) throw new AppError("ERR_TOTP_ALREADY_ENABLED");
    if (!row) throw new AppError("ERR_TOTP_NOT_ENABLED", { message: "Start the enrolment first: no secret is waiting." });
    const step = matchTotp(openSecret(row.secret), code, clock.now(), row.lastStep);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const confirmed =
      step !== null &&
      (await db.transaction(async (tx) => {
        if (!(await repo.consumeStep(tx, user.id, step, { sealedSecret: row.secret, confirm: clock.now() }))) return false;
        await repo.replaceRecoveryCodes(
          tx,
          user.id,
          codes.map((c) => recoveryHash(user.id, c)),
        );
        await recordAudit(tx, {
          action: "twoFactor.enabled",
          targetType: "user",
          targetId: user.id,
          who: { userId: user.id, name: user.name, email: user.email },
        });
        return true;
      }));
    if (!confirmed) return failed(user, ip, via);
    await limiters.user.reset(String(user.id));
    return { recoveryCodes: codes };
  }

  return {
    /** After a correct password: nothing more, a code, or an enrolment first (the setting requires one). */
    async nextStep(user: UserRow): Promise<ChallengePurpose | "none"> {
      if (await repo.hasTwoFactor(db, user.id)) return "verify";
      return (await required(user)) ? "enrol" : "none";
    },

    async challenge(user: UserRow, purpose: ChallengePurpose): Promise<TwoFactorChallenge> {
      const { challenge, expiresAt } = await challenges.issue(user, purpose);
      return { twoFactor: purpose, challenge, expiresAt: expiresAt.toISOString() };
    },

    /** Sign-in, second step: the user whose code (or recovery code) was right; a session is theirs to start. */
    async verifyLogin(input: { challenge: string; code: string }, ip: string): Promise<number> {
      const userId = await challenges.open(input.challenge, "verify", (id) => usersRepo.findUserById(db, id));
      await checkCode(await userRow(userId), input.code, ip, "login");
      return userId;
    },

    /** Sign-in of a user who must enrol: the secret to scan (the challenge reaches nothing else). */
    async startLoginEnrolment(challenge: string): Promise<TwoFactorEnrolment> {
      const userId = await challenges.open(challenge, "enrol", (id) => usersRepo.findUserById(db, id));
      return startEnrolment(await userRow(userId));
    },

    async confirmLoginEnrolment(
      input: { challenge: string; code: string },
      ip: string,
    ): Promise<RecoveryCodes & { userId: number }> {
      const userId = await challenges.open(input.challenge, "enrol", (id) => usersRepo.findUserById(db, id));
      return { userId, ...(await confirmEnrolment(await userRow(userId), input.code, ip, "enrolment")) };
    },

    async status(actor: Actor): Promise<TwoFactorStatus> {
      const user = await userRow(actor.id);
      const row = await repo.findTwoFactor(db, actor.id);
      const enabled = !!row?.confirmedAt;
      return {
        enabled,
        enabledAt: row?.confirmedAt?.toISOString() ?? null,
        recoveryCodesLeft: enabled ? await repo.recoveryCodesLeft(db, actor.id) : 0,
        required: await required(user),
      };
    },

    async enrol(actor: Actor): Promise<TwoFactorEnrolment> {
      return startEnrolment(await userRow(actor.id));
    },

    async confirm(actor: Actor, code: string, ip: string): Promise<RecoveryCodes> {
      return confirmEnrolment(await userRow(actor.id), code, ip, "enrolment");
    },

    /** Ten new recovery codes (the old ones stop working), for a current code. */
    async renewRecoveryCodes(actor: Actor, code: string, ip: string): Promise<RecoveryCodes> {
      const user = await userRow(actor.id);
      await checkCode(user, code, ip, "recoveryCodes", false);
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await db.transaction(async (tx) => {
        await repo.replaceRecoveryCodes(
          tx,
          user.id,
          codes.map((c) => recoveryHash(user.id, c)),
        );
        await recordAudit(tx, { action: "twoFactor.recoveryCodesRenewed", targetType: "user", targetId: user.id });
      });
      return { recoveryCodes: codes };
    },

    /** Off, with a current code, a recovery code or the password; refused while the setting requires it. */
    async disable(actor: Actor, input: TwoFactorDisableInput, ip: string): Promise<void> {
      const user = await userRow(actor.id);
      if (!(await repo.hasTwoFactor(db, user.id))) throw new AppError("ERR_TOTP_NOT_ENABLED");
      if (await required(user)) throw new AppError("ERR_TOTP_REQUIRED");
      if (input.code !== undefined) {
        await checkCode(user, input.code, ip, "disable");
      } else {
        await assertNotWaiting(user.id, ip);
        if (!(await verifyPassword(user.passwordHash, input.password ?? ""))) await failed(user, ip, "disable");
      }
      await db.transaction(async (tx) => {
        await repo.deleteTwoFactor(tx, user.id);
        await recordAudit(tx, { action: "twoFactor.disabled", targetType: "user", targetId: user.id });
      });
    },

    /** An admin turns off another user's second factor (a lost phone); the user enrols again at will or when required. */
    async reset(actor: Actor, userId: number): Promise<void> {
      if (!can(actor, "twoFactor:reset")) throw new AppError("ERR_NO_PERMISSION");
      if (actor.id === userId) throw new AppError("ERR_TOTP_RESET_SELF");
      await db.transaction(async (tx) => {
        const target = await usersRepo.findUserById(tx, userId);
        if (!target) throw new AppError("ERR_NO_USER_FOUND");
        if (!(await repo.deleteTwoFactor(tx, userId))) throw new AppError("ERR_TOTP_NOT_ENABLED");
        await recordAudit(tx, {
          action: "twoFactor.reset",
          targetType: "user",
          targetId: userId,
          details: { name: target.name, email: target.email },
        });
      });
    },

    async enabledUserIds(actor: Actor): Promise<number[]> {
      if (!can(actor, "twoFactor:reset")) throw new AppError("ERR_NO_PERMISSION");
      return repo.enabledUserIds(db);
    },

    /** Whether the setting requires a second factor this user has not set up (their sessions cannot go on). */
    async blocks(user: Pick<UserRow, "id" | "profile">): Promise<boolean> {
      return (await required(user)) && !(await repo.hasTwoFactor(db, user.id));
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
