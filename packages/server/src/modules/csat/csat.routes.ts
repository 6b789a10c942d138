import { dashboardQuerySchema, ratingDashboardSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import { clientGone } from "../../lib/heavy-reads.js";
import type { RouteContext } from "../../services.js";

/** Issue 11 CSAT: the dashboard's satisfaction figures (same period filters as GET /dashboard). */
export const csatRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate, heavyReads }) => {
  app.addHook("onRequest", authenticate);
  app.get(
    "/dashboard/ratings",
    {
      schema: {
        tags: ["dashboard"],
        summary: "Satisfaction ratings (CSAT) of the month: average and distribution, per agent and per queue",
        querystring: dashboardQuerySchema,
        response: { 200: ratingDashboardSchema },
      },
    },
    (request) =>
      heavyReads.run(actorOf(request).id, () => services.csatDashboard(actorOf(request), request.query), clientGone(request)),
  );
};
