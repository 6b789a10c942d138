import { can, type Permission } from "@zapdesk/core";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../lib/app-error.js";
import { bearerToken } from "../lib/bearer-token.js";
import type { TokenService } from "../modules/auth/tokens.js";
import type { SessionUsers } from "../modules/users/session-users.js";
import type { AuthUser } from "../modules/users/users.repo.js";

declare module "fastify" {
  interface FastifyRequest {
    user: AuthUser | null;
    /** Issue 22 §5: the session of the request's access token (behind `authenticate`). */
    sessionId: string | null;
  }
}

export const REFRESH_COOKIE = "jrt";

export { bearerToken };

/**
 * onRequest hook: no token is 401, a bad or expired one 403 (the client refreshes),
 * and the user is the one of the token's session as the database has it now (kept between requests
 * only until the database says it changed: session-users.ts), so a deletion, a role change or an
 * ended session (logout, "end session", new password) applies at once: 401.
 */
export function createAuthenticate(deps: { users: Pick<SessionUsers, "find">; tokens: TokenService }) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new AppError("ERR_SESSION_EXPIRED");
    const session = await deps.tokens.verifyAccessSession(token);
    const user = await deps.users.find(session.userId, session.sessionId);
    if (!user) throw new AppError("ERR_SESSION_EXPIRED");
    request.user = user;
    request.sessionId = session.sessionId;
    deps.tokens.touch(session.sessionId);
  };
}

/** The signed-in actor of a route behind `authenticate`. */
export function actorOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError("ERR_SESSION_EXPIRED");
  return request.user;
}

/**
 * onRequest hook (after `authenticate`) for routes only some roles may use: refused
 * before the body is read, so a forbidden caller learns nothing about the payload.
 * Services check again; this only makes the answer a 403 rather than a 400.
 */
export function requirePermission(permission: Permission) {
  return async function checkPermission(request: FastifyRequest): Promise<void> {
    if (!can(actorOf(request), permission)) throw new AppError("ERR_NO_PERMISSION");
  };
}
