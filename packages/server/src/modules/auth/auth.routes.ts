import { loginResultSchema, loginSchema, sessionSchema, signupSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { bearerToken, REFRESH_COOKIE } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";
import { refreshCookieSetter } from "./refresh-cookie.js";

export const authRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, config }) => {
  const tags = ["auth"];
  const setRefreshCookie = refreshCookieSetter(config);

  app.post(
    "/auth/login",
    {
      schema: {
        tags,
        description:
          "A session (access token, refresh cookie) or, for an account with two-factor sign-in (or one the setting `twoFactorRequired` " +
          "makes due), a short-lived challenge for POST /auth/login/two-factor (`verify`) or the enrolment at sign-in (`enrol`).",
        body: loginSchema,
        response: { 200: loginResultSchema },
      },
    },
    async (request, reply) => {
      const result = await services.auth.login(request.body, request.ip, String(request.headers["user-agent"] ?? ""));
      if ("challenge" in result) return result;
      setRefreshCookie(reply, result.refreshToken);
      return { token: result.token, user: result.user };
    },
  );

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
