import { dashboardQuerySchema, dashboardSchema, metricsQuerySchema, metricsSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../http/route-context.js";

export const dashboardRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  app.get(
    "/dashboard",
    { schema: { tags: ["dashboard"], querystring: dashboardQuerySchema, response: { 200: dashboardSchema } } },
    (request) => services.dashboard(actorOf(request), request.query),
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
    (request) => services.dashboardMetrics(actorOf(request), request.query),
  );
};
