import { createHash, createHmac } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";

/** How long the second step of a sign-in may take (typing a code, or scanning a QR code first). */
export const CHALLENGE_TTL_SECONDS = 10 * 60;

export type ChallengePurpose = "verify" | "enrol";

export interface Challenge {
  userId: number;
  purpose: ChallengePurpose;
}

/**
 * Issue 22 §5: the token a correct password earns when a second step is due. A JWT signed with a
 * key of its own (derived from the access secret, so it is never an access token and the other way
 * round), naming its purpose: `verify` reaches only the code check, `enrol` only the enrolment at
 * sign-in. It carries a fingerprint of the password hash, so a password change voids it.
 */
export function createChallenges(options: { secret: string; clock: Clock }) {
  const key = createHmac("sha256", options.secret).update("zapdesk-two-factor-challenge").digest();
  const fingerprint = (passwordHash: string) => createHash("sha256").update(passwordHash).digest("base64url").slice(0, 16);
  const expired = () => new AppError("ERR_TOTP_CHALLENGE_EXPIRED");

  return {
    async issue(
      user: { id: number; passwordHash: string },
      purpose: ChallengePurpose,
    ): Promise<{ challenge: string; expiresAt: Date }> {
      const now = Math.floor(options.clock.now().getTime() / 1000);
      const challenge = await new SignJWT({ tf: purpose, pw: fingerprint(user.passwordHash) })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(user.id))
        .setIssuedAt(now)
        .setExpirationTime(now + CHALLENGE_TTL_SECONDS)
        .sign(key);
      return { challenge, expiresAt: new Date((now + CHALLENGE_TTL_SECONDS) * 1000) };
    },

    /** The user and purpose of a live challenge; anything else (expired, forged, other purpose) is ERR_TOTP_CHALLENGE_EXPIRED. */
    async open(
      challenge: string,
      purpose: ChallengePurpose,
      user: (id: number) => Promise<{ passwordHash: string } | undefined>,
    ) {
      let userId: number;
      let pw: unknown;
      try {
        const { payload } = await jwtVerify(challenge, key, { algorithms: ["HS256"], currentDate: options.clock.now() });
        if (payload.tf !== purpose) throw expired();
        userId = Number(payload.sub);
        pw = payload.pw;
      } catch {
        throw expired();
      }
      if (!Number.isInteger(userId) || userId <= 0) throw expired();
      const row = await user(userId);
      if (!row || pw !== fingerprint(row.passwordHash)) throw expired();
      return userId;
    },
  };
}

export type Challenges = ReturnType<typeof createChallenges>;
