import {
  recoveryCodesSchema,
  sessionSchema,
  sessionWithRecoveryCodesSchema,
  twoFactorChallengeBodySchema,
  twoFactorConfirmSchema,
  twoFactorDisableSchema,
  twoFactorEnrolmentSchema,
  twoFactorLoginConfirmSchema,
  twoFactorLoginSchema,
  twoFactorStatusSchema,
  twoFactorUsersSchema,
  userTwoFactorParamsSchema,
} from "@zapdesk/core";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";
import { refreshCookieSetter } from "../auth/refresh-cookie.js";

const message = { 200: z.object({ message: z.string() }) };

/**
 * Issue 22 §5: two-factor sign-in. The sign-in's second step (with the challenge the login
 * answered, no access token), and the signed-in user's own settings; admins reset another user's.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, config, authenticate }) => {
  const tags = ["two-factor"];
  const setRefreshCookie = refreshCookieSetter(config);
  const origin = (request: FastifyRequest) => ({ ip: request.ip, userAgent: String(request.headers["user-agent"] ?? "") });

  app.post(
    "/auth/login/two-factor",
    {
      schema: {
        tags,
        description:
          "Sign-in, second step: the `verify` challenge and a code from the authenticator app (each code works once) or an " +
          "unused recovery code. Wrong codes wait like wrong passwords and are in the audit trail.",
        body: twoFactorLoginSchema,
        response: { 200: sessionSchema },
      },
    },
    async (request, reply) => {
      const userId = await services.twoFactor.verifyLogin(request.body, request.ip);
      const { token, user, refreshToken } = await services.auth.startSession(userId, origin(request));
      setRefreshCookie(reply, refreshToken);
      return { token, user };
    },
  );

  app.post(
    "/auth/login/two-factor/enrol",
    {
      schema: {
        tags,
        description:
          "Sign-in of a user the setting requires to have two-factor sign-in: with the `enrol` challenge (it reaches nothing " +
          "else), a new secret to scan. Confirm it with POST /auth/login/two-factor/confirm.",
        body: twoFactorChallengeBodySchema,
        response: { 200: twoFactorEnrolmentSchema },
      },
    },
    (request) => services.twoFactor.startLoginEnrolment(request.body.challenge),
  );

  app.post(
    "/auth/login/two-factor/confirm",
    {
      schema: {
        tags,
        description:
          "Confirms the enrolment at sign-in with a first code: two-factor is on, the session starts, the recovery codes come back once.",
        body: twoFactorLoginConfirmSchema,
        response: { 200: sessionWithRecoveryCodesSchema },
      },
    },
    async (request, reply) => {
      const { userId, recoveryCodes } = await services.twoFactor.confirmLoginEnrolment(request.body, request.ip);
      const { token, user, refreshToken } = await services.auth.startSession(userId, origin(request));
      setRefreshCookie(reply, refreshToken);
      return { token, user, recoveryCodes };
    },
  );

  app.register(async (plugin) => {
    const secured = plugin.withTypeProvider<ZodTypeProvider>();
    secured.addHook("onRequest", authenticate);

    secured.get(
      "/two-factor",
      {
        schema: {
          tags,
          description: "The caller's two-factor sign-in: on or off, recovery codes left, required or not.",
          response: { 200: twoFactorStatusSchema },
        },
      },
      (request) => services.twoFactor.status(actorOf(request)),
    );
    secured.post(
      "/two-factor/enrol",
      {
        schema: {
          tags,
          description:
            "A new secret (replacing one not yet confirmed): the otpauth:// URI for the QR code and the secret for typing in.",
          response: { 200: twoFactorEnrolmentSchema },
        },
      },
      (request) => services.twoFactor.enrol(actorOf(request)),
    );
    secured.post(
      "/two-factor/confirm",
      {
        schema: {
          tags,
          description:
            "The first code from the app turns two-factor on; ten recovery codes come back once (only their hashes are kept).",
          body: twoFactorConfirmSchema,
          response: { 200: recoveryCodesSchema },
        },
      },
      (request) => services.twoFactor.confirm(actorOf(request), request.body.code, request.ip),
    );
    secured.post(
      "/two-factor/recovery-codes",
      {
        schema: {
          tags,
          description: "Ten new recovery codes for a current code from the app; the old ones stop working.",
          body: twoFactorConfirmSchema,
          response: { 200: recoveryCodesSchema },
        },
      },
      (request) => services.twoFactor.renewRecoveryCodes(actorOf(request), request.body.code, request.ip),
    );
    secured.post(
      "/two-factor/disable",
      {
        schema: {
          tags,
          description:
            "Turns two-factor off with a current code, a recovery code or the password; refused while the setting requires it.",
          body: twoFactorDisableSchema,
          response: message,
        },
      },
      async (request) => {
        await services.twoFactor.disable(actorOf(request), request.body, request.ip);
        return { message: "Two-factor sign-in is off" };
      },
    );
    secured.get(
      "/two-factor/users",
      {
        onRequest: requirePermission("twoFactor:reset"),
        schema: {
          tags,
          description: "Admins: the ids of the users with two-factor sign-in on.",
          response: { 200: twoFactorUsersSchema },
        },
      },
      async (request) => ({ userIds: await services.twoFactor.enabledUserIds(actorOf(request)) }),
    );
    secured.delete(
      "/users/:id/two-factor",
      {
        onRequest: requirePermission("twoFactor:reset"),
        schema: {
          tags,
          description:
            "Admins: turn off another user's two-factor sign-in (a lost phone); recorded in the audit trail. Never one's own.",
          params: userTwoFactorParamsSchema,
          response: message,
        },
      },
      async (request) => {
        await services.twoFactor.reset(actorOf(request), request.params.id);
        return { message: "Two-factor sign-in was reset" };
      },
    );
  });
};
