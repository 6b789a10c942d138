import { dashboardQuerySchema, dashboardSchema, metricsQuerySchema, metricsSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import { clientGone } from "../../lib/heavy-reads.js";
import type { RouteContext } from "../../services.js";

/** Both reads aggregate a month of tickets: heavy reads (issue 19), one per user in flight. */
export const dashboardRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate, heavyReads }) => {
  app.addHook("onRequest", authenticate);
  app.get(
    "/dashboard",
    { schema: { tags: ["dashboard"], querystring: dashboardQuerySchema, response: { 200: dashboardSchema } } },
    (request) =>
      heavyReads.run(actorOf(request).id, () => services.dashboard(actorOf(request), request.query), clientGone(request)),
  );
  // Issue 13: first response, resolution and waiting (median, p90) per day, queue and agent.
  app.get(
    "/dashboard/metrics",
    {
      schema: {
        tags: ["dashboard"],
        summary: "Service times (median and p90, ms) of the tickets created in a period: overall, per day, queue and agent",
        querystring: metricsQuerySchema,
        response: { 200: metricsSchema },
      },
    },
    (request) =>
      heavyReads.run(actorOf(request).id, () => services.dashboardMetrics(actorOf(request), request.query), clientGone(request)),
  );
};
