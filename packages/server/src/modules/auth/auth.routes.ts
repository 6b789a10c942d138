import { loginSchema, sessionSchema, signupSchema } from "@zapdesk/core";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { bearerToken, REFRESH_COOKIE } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";
import { REFRESH_TOKEN_TTL_MS } from "./tokens.js";

export const authRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, config }) => {
  const tags = ["auth"];
  const secure = config.publicUrl?.startsWith("https://") ?? false;

  function setRefreshCookie(reply: FastifyReply, token: string) {
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: "strict",
      secure,
      path: "/api/auth",
      maxAge: Math.floor(REFRESH_TOKEN_TTL_MS / 1000),
    });
  }

  app.post("/auth/login", { schema: { tags, body: loginSchema, response: { 200: sessionSchema } } }, async (request, reply) => {
    const { token, user, refreshToken } = await services.auth.login(
      request.body,
      request.ip,
      String(request.headers["user-agent"] ?? ""),
    );
    setRefreshCookie(reply, refreshToken);
    return { token, user };
  });

  app.post("/auth/refresh_token", { schema: { tags, response: { 200: sessionSchema } } }, async (request, reply) => {
    try {
      const { token, user, refreshToken } = await services.auth.refresh(request.cookies[REFRESH_COOKIE]);
      setRefreshCookie(reply, refreshToken);
      return { token, user };
    } catch (error) {
      reply.clearCookie(REFRESH_COOKIE, { path: "/api/auth" });
      throw error;
    }
  });

  app.delete(
    "/auth/logout",
    { schema: { tags, response: { 200: z.object({ message: z.string() }) } } },
    async (request, reply) => {
      await services.auth.logout(request.cookies[REFRESH_COOKIE], bearerToken(request.headers.authorization));
      reply.clearCookie(REFRESH_COOKIE, { path: "/api/auth" });
      return { message: "Logged out" };
    },
  );

  app.post(
    "/auth/signup",
    {
      schema: {
        tags,
        description: "The same answer whether the email was free or already had an account (nothing is created then).",
        body: signupSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    (request) => services.auth.signup(request.body, request.ip),
  );
};
