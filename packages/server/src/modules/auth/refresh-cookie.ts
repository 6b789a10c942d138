import type { FastifyReply } from "fastify";
import type { Config } from "../../config.js";
import { REFRESH_COOKIE } from "../../http/auth.js";
import { REFRESH_TOKEN_TTL_MS } from "./tokens.js";

/** The refresh token's cookie: http-only, strict, only sent to /api/auth (secure behind https). */
export function refreshCookieSetter(config: Pick<Config, "publicUrl">) {
  const secure = config.publicUrl?.startsWith("https://") ?? false;
  return (reply: FastifyReply, token: string) =>
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: "strict",
      secure,
      path: "/api/auth",
      maxAge: Math.floor(REFRESH_TOKEN_TTL_MS / 1000),
    });
}
