import { createHash, createHmac, randomBytes } from "node:crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Db } from "../../db/client.js";
import { refreshTokens } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Two tabs refreshing with the same cookie at once: the one that comes second within this
 * window gets the session the first one created, instead of tripping reuse detection.
 */
export const REFRESH_REUSE_GRACE_MS = 30 * 1000;
/** Verified access tokens kept (least recently used dropped first): every request checks one. */
export const VERIFIED_ACCESS_CACHE_SIZE = 1000;

export interface TokenServiceOptions {
  db: Db;
  clock: Clock;
  accessSecret: string;
  refreshSecret: string;
  accessTtlSeconds?: number;
}

/**
 * Access tokens are short JWTs; refresh tokens are random strings stored only as
 * an HMAC, rotated on every use, so logout and role changes revoke them.
 */
export function createTokenService(options: TokenServiceOptions) {
  const { db, clock } = options;
  const accessKey = new TextEncoder().encode(options.accessSecret);
  const ttl = options.accessTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  const digest = (token: string) => createHmac("sha256", options.refreshSecret).update(token).digest("hex");
  // A rotated token's successor is derived from it (with a key of its own, so a stored digest
  // never equals a live token): a benign second refresh can be given the same successor.
  const successorKey = createHmac("sha256", options.refreshSecret).update("zapdesk-refresh-successor").digest();
  const successorOf = (token: string) => createHmac("sha256", successorKey).update(token).digest("base64url");

  async function issueRefresh(userId: number, executor: Db = db, token = randomBytes(32).toString("base64url")): Promise<string> {
    // Every rotation leaves a row behind; drop this user's dead ones so the table stays bounded.
    const now = clock.now();
    await executor
      .delete(refreshTokens)
      .where(
        and(
          eq(refreshTokens.userId, userId),
          or(lt(refreshTokens.expiresAt, now), lt(refreshTokens.revokedAt, new Date(now.getTime() - REFRESH_TOKEN_TTL_MS))),
        ),
      );
    await executor.insert(refreshTokens).values({
      userId,
      tokenHash: digest(token),
      expiresAt: new Date(clock.now().getTime() + REFRESH_TOKEN_TTL_MS),
    });
    return token;
  }

  const withinGrace = (revokedAt: Date) => clock.now().getTime() - revokedAt.getTime() <= REFRESH_REUSE_GRACE_MS;

  /** The live end of a chain of rotations made within the grace window, if the session still exists. */
  async function liveSuccessor(executor: Db, token: string): Promise<string | undefined> {
    let next = successorOf(token);
    for (let step = 0; step < 5; step++) {
      const [row] = await executor
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, digest(next)));
      if (!row || row.expiresAt <= clock.now()) return undefined;
      if (!row.revokedAt) return next;
      if (!withinGrace(row.revokedAt)) return undefined;
      next = successorOf(next);
    }
    return undefined;
  }

  // A token's signature and claims never change: once verified, only its expiry needs checking again.
  const verified = new Map<string, { userId: number; expiresAt: Date }>();
  const expiredError = () => new AppError("ERR_TOKEN_EXPIRED");

  async function verifyAccessSession(token: string): Promise<{ userId: number; expiresAt: Date }> {
    const known = verified.get(token);
    if (known) {
      verified.delete(token);
      if (known.expiresAt.getTime() <= clock.now().getTime()) throw expiredError();
      verified.set(token, known);
      return known;
    }
    const session = await verifySignature(token);
    verified.set(token, session);
    if (verified.size > VERIFIED_ACCESS_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    return session;
  }

  async function verifySignature(token: string): Promise<{ userId: number; expiresAt: Date }> {
    try {
      const { payload } = await jwtVerify(token, accessKey, {
        algorithms: ["HS256"],
        currentDate: clock.now(),
      });
      const id = Number(payload.sub);
      if (!Number.isInteger(id) || id <= 0 || typeof payload.exp !== "number") throw new Error("bad claims");
      return { userId: id, expiresAt: new Date(payload.exp * 1000) };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw expiredError();
      throw new AppError("ERR_TOKEN_EXPIRED", { message: "Invalid token." });
    }
  }

  return {
    /**
     * Names this installation without revealing its secret: every process of one install
     * shares it, two installs (or test apps) on one Redis never do.
     */
    installId: createHash("sha256").update(`zapdesk-install:${options.accessSecret}`).digest("hex").slice(0, 16),

    async signAccess(userId: number): Promise<string> {
      const now = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(userId))
        .setIssuedAt(now)
        .setExpirationTime(now + ttl)
        .sign(accessKey);
    },

    /** Returns the user id; an expired or forged token is ERR_TOKEN_EXPIRED (403) (the client refreshes). */
    async verifyAccess(token: string): Promise<number> {
      return (await verifyAccessSession(token)).userId;
    },

    /** The user id and when the token stops being valid (sockets check it after connecting). */
    verifyAccessSession,

    issueRefresh,

    /**
     * Exchange a refresh token for a new one. A token used again within the grace window
     * answers with its (still live) successor; used again later, it leaked: every session
     * of that user is revoked.
     */
    async rotateRefresh(token: string): Promise<{ userId: number; refreshToken: string }> {
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, digest(token)))
          .for("update");
        if (!row || row.expiresAt <= clock.now()) return { ok: false as const };
        if (row.revokedAt && withinGrace(row.revokedAt)) {
          const successor = await liveSuccessor(tx, token);
          return successor ? { ok: true as const, userId: row.userId, refreshToken: successor } : { ok: false as const };
        }
        if (row.revokedAt) {
          // Returned, not thrown: throwing here would roll the revocation back.
          await tx.delete(refreshTokens).where(eq(refreshTokens.userId, row.userId));
          return { ok: false as const };
        }
        await tx.update(refreshTokens).set({ revokedAt: clock.now() }).where(eq(refreshTokens.id, row.id));
        return { ok: true as const, userId: row.userId, refreshToken: await issueRefresh(row.userId, tx, successorOf(token)) };
      });
      if (!outcome.ok) throw new AppError("ERR_SESSION_EXPIRED");
      return { userId: outcome.userId, refreshToken: outcome.refreshToken };
    },

    /** Ends one session; returns its user, if the token was known. */
    async revokeRefresh(token: string): Promise<number | undefined> {
      const [row] = await db
        .delete(refreshTokens)
        .where(eq(refreshTokens.tokenHash, digest(token)))
        .returning({ userId: refreshTokens.userId });
      return row?.userId;
    },

    async revokeAllForUser(userId: number, executor: Db = db): Promise<void> {
      await executor.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
    },

    /** Housekeeping: drop expired tokens and rotated ones kept for reuse detection. */
    async purgeExpired(): Promise<void> {
      const now = clock.now();
      const rotatedLongAgo = new Date(now.getTime() - REFRESH_TOKEN_TTL_MS);
      await db
        .delete(refreshTokens)
        .where(or(lt(refreshTokens.expiresAt, now), and(lt(refreshTokens.revokedAt, rotatedLongAgo))));
    },

    /** How many verified access tokens are remembered (tests prove the cache is used and bounded). */
    _verifiedCount: () => verified.size,

    _activeCount: async (userId: number) =>
      (
        await db
          .select({ id: refreshTokens.id })
          .from(refreshTokens)
          .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
      ).length,
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
