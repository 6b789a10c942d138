import { sessionListSchema, sessionParamsSchema, sessionsEndedSchema, userSessionsParamsSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

/** Issue 22 §5: a user's sessions (sign-ins on devices), and ending them. */
export const sessionRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  const tags = ["sessions"];
  app.addHook("onRequest", authenticate);

  app.get(
    "/sessions",
    {
      schema: {
        tags,
        description: "The caller's active sessions, most recently seen first; `current` is the one asking.",
        response: { 200: sessionListSchema },
      },
    },
    async (request) => ({ sessions: await services.auth.sessions(actorOf(request).id, request.sessionId) }),
  );

  app.delete(
    "/sessions/:id",
    {
      schema: {
        tags,
        description:
          "End one of the caller's sessions: its access tokens are refused at once (401), its refresh token and sockets are gone.",
        params: sessionParamsSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      await services.auth.endSession(actorOf(request), request.params.id);
      return { message: "Session ended" };
    },
  );

  app.delete(
    "/users/:id/sessions",
    {
      onRequest: requirePermission("sessions:manageAll"),
      schema: {
        tags,
        description: "Admins: end every session of a user (the user signs in again everywhere).",
        params: userSessionsParamsSchema,
        response: { 200: sessionsEndedSchema },
      },
    },
    async (request) => ({ ended: await services.auth.endAllSessions(actorOf(request), request.params.id) }),
  );
};
