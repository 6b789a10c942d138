import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { and, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Db } from "../../db/client.js";
import { refreshTokens, sessions } from "../../db/schema.js";
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

/** A session's last-seen time is written at most this often by requests (refreshes always write it). */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

/** What an access token stands for once verified. */
export interface AccessSession {
  userId: number;
  /** The session (sessions row) the token belongs to: the request is refused once it is ended. */
  sessionId: string;
  expiresAt: Date;
}

/** Where a sign-in came from, shown in the user's list of sessions. */
export interface SessionOrigin {
  ip?: string;
  userAgent?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TokenServiceOptions {
  db: Db;
  clock: Clock;
  accessSecret: string;
  refreshSecret: string;
  accessTtlSeconds?: number;
}

/**
 * Access tokens are short JWTs naming their session (`sid`); refresh tokens are random strings
 * stored only as an HMAC, rotated on every use within their session. Ending a session (logout,
 * "end session", a new password) deletes its row and its refresh tokens, and its access tokens
 * are refused at once (the request's user lookup joins the session).
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

  async function createSession(userId: number, origin: SessionOrigin = {}, executor: Db = db): Promise<string> {
    const id = randomUUID();
    const now = clock.now();
    await executor.insert(sessions).values({
      id,
      userId,
      ip: (origin.ip ?? "").slice(0, 100),
      userAgent: (origin.userAgent ?? "").slice(0, 500),
      createdAt: now,
      lastSeenAt: now,
    });
    return id;
  }

  async function issueRefresh(
    userId: number,
    sessionId: string,
    executor: Db = db,
    token = randomBytes(32).toString("base64url"),
  ): Promise<string> {
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
      sessionId,
      tokenHash: digest(token),
      expiresAt: new Date(clock.now().getTime() + REFRESH_TOKEN_TTL_MS),
    });
    return token;
  }

  /** Sessions whose last-seen time this process wrote lately (ms), so requests write it rarely. */
  const touched = new Map<string, number>();

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
  const verified = new Map<string, AccessSession>();
  const expiredError = () => new AppError("ERR_TOKEN_EXPIRED");

  async function verifyAccessSession(token: string): Promise<AccessSession> {
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

  async function verifySignature(token: string): Promise<AccessSession> {
    try {
      const { payload } = await jwtVerify(token, accessKey, {
        algorithms: ["HS256"],
        currentDate: clock.now(),
      });
      const id = Number(payload.sub);
      const sid = payload.sid;
      // A token from before sessions existed has no `sid`: 403, and the client refreshes into its session.
      if (!Number.isInteger(id) || id <= 0 || typeof payload.exp !== "number" || typeof sid !== "string" || !UUID.test(sid)) {
        throw new Error("bad claims");
      }
      return { userId: id, sessionId: sid, expiresAt: new Date(payload.exp * 1000) };
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

    /** Without a session id a new session is made for it (scripts and tests signing a user in directly). */
    async signAccess(userId: number, sessionId?: string): Promise<string> {
      const sid = sessionId ?? (await createSession(userId));
      const now = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({ sid })
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

    createSession,

    /**
     * Note that a session was used (a request with its token), at most once a minute per session
     * and process: the list of sessions shows it as "last seen". Never awaited by the request.
     */
    touch(sessionId: string): void {
      const now = clock.now().getTime();
      const last = touched.get(sessionId);
      if (last !== undefined && now - last < SESSION_TOUCH_INTERVAL_MS) return;
      if (touched.size >= VERIFIED_ACCESS_CACHE_SIZE) touched.clear();
      touched.set(sessionId, now);
      db.update(sessions)
        .set({ lastSeenAt: clock.now() })
        .where(eq(sessions.id, sessionId))
        .catch(() => touched.delete(sessionId));
    },

    /** A user's sessions, most recently seen first. */
    listSessions(userId: number) {
      return db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(sql`${sessions.lastSeenAt} desc`, sessions.id);
    },

    /** Ends one session (of this user, when given); returns it if it existed. */
    async endSession(sessionId: string, userId?: number, executor: Db = db) {
      const [row] = await executor
        .delete(sessions)
        .where(userId === undefined ? eq(sessions.id, sessionId) : and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
        .returning({ id: sessions.id, userId: sessions.userId });
      return row;
    },

    /** Ends every session of a user but `except` (the caller's own); returns the ended ids. */
    async endSessionsOf(userId: number, options: { except?: string; executor?: Db } = {}): Promise<string[]> {
      const rows = await (options.executor ?? db)
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), options.except ? ne(sessions.id, options.except) : undefined))
        .returning({ id: sessions.id });
      return rows.map((r) => r.id);
    },

    /**
     * Exchange a refresh token for a new one. A token used again within the grace window
     * answers with its (still live) successor; used again later, it leaked: every session
     * of that user is revoked.
     */
    async rotateRefresh(token: string): Promise<{ userId: number; sessionId: string; refreshToken: string }> {
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, digest(token)))
          .for("update");
        if (!row || row.expiresAt <= clock.now()) return { ok: false as const };
        if (row.revokedAt && withinGrace(row.revokedAt)) {
          const successor = await liveSuccessor(tx, token);
          return successor
            ? { ok: true as const, userId: row.userId, sessionId: row.sessionId, refreshToken: successor }
            : { ok: false as const };
        }
        if (row.revokedAt) {
          // Returned, not thrown: throwing here would roll the revocation back.
          await tx.delete(sessions).where(eq(sessions.userId, row.userId));
          return { ok: false as const };
        }
        await tx.update(refreshTokens).set({ revokedAt: clock.now() }).where(eq(refreshTokens.id, row.id));
        await tx.update(sessions).set({ lastSeenAt: clock.now() }).where(eq(sessions.id, row.sessionId));
        return {
          ok: true as const,
          userId: row.userId,
          sessionId: row.sessionId,
          refreshToken: await issueRefresh(row.userId, row.sessionId, tx, successorOf(token)),
        };
      });
      if (!outcome.ok) throw new AppError("ERR_SESSION_EXPIRED");
      return { userId: outcome.userId, sessionId: outcome.sessionId, refreshToken: outcome.refreshToken };
    },

    /** Ends the session of this refresh token; returns it, if the token was known. */
    async revokeRefresh(token: string): Promise<{ userId: number; sessionId: string } | undefined> {
      const [row] = await db
        .select({ sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, digest(token)));
      if (!row) return undefined;
      const ended = await db
        .delete(sessions)
        .where(eq(sessions.id, row.sessionId))
        .returning({ userId: sessions.userId, sessionId: sessions.id });
      return ended[0];
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
