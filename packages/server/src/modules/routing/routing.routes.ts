import {
  agentLoadListSchema,
  idParamsSchema,
  queueRoutingInputSchema,
  routingSettingsSchema,
  userPresenceListSchema,
  userRoutingInputSchema,
} from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

/** Issue 13: presence and agents' load. */
export const routingRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);

  app.get(
    "/users/presence",
    {
      schema: {
        tags: ["users"],
        description:
          "Every user's presence (online, away, offline; from their sockets on every process) and open tickets. Any signed-in user.",
        response: { 200: userPresenceListSchema },
      },
    },
    () => services.presence.list(),
  );

  app.get(
    "/dashboard/agents",
    {
      schema: {
        tags: ["dashboard"],
        description:
          "Agents' presence and load: open tickets, pending tickets in their queues. Admins see everyone; an agent sees the colleagues of their queues.",
        response: { 200: agentLoadListSchema },
      },
    },
    (request) => services.presence.agents(actorOf(request)),
  );
};

/** Issue 13: automatic assignment settings (admin). */
export const autoAssignRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["routing"];
  app.get(
    "/routing",
    {
      schema: {
        tags,
        description: "Admin: automatic assignment per queue and agents' capacity.",
        response: { 200: routingSettingsSchema },
      },
    },
    (request) => services.autoAssign.settings(actorOf(request)),
  );
  app.put(
    "/routing/queues/:id",
    {
      schema: {
        tags,
        description: "Admin: turn automatic assignment (round-robin among the queue's online agents) on or off.",
        params: idParamsSchema,
        body: queueRoutingInputSchema,
        response: { 200: z.object({ queueId: z.number(), autoAssign: z.boolean() }) },
      },
    },
    (request) => services.autoAssign.setQueue(actorOf(request), request.params.id, request.body.autoAssign),
  );
  app.put(
    "/routing/users/:id",
    {
      schema: {
        tags,
        description: "Admin: an agent's capacity for automatic assignment (max open tickets; null: unlimited).",
        params: idParamsSchema,
        body: userRoutingInputSchema,
        response: { 200: z.object({ userId: z.number(), maxOpenTickets: z.number().nullable() }) },
      },
    },
    (request) => services.autoAssign.setUser(actorOf(request), request.params.id, request.body.maxOpenTickets),
  );
};
