import { dashboardQuerySchema, dashboardSchema } from "@zapdesk/core";
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
};
