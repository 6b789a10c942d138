import { deletedSchema, idParamsSchema, queueInputSchema, queueSchema, queueUpdateSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

export const queueRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["queues"];

  app.get("/queue", { schema: { tags, response: { 200: z.array(queueSchema) } } }, () => services.queues.list());

  app.get("/queue/:id", { schema: { tags, params: idParamsSchema, response: { 200: queueSchema } } }, (request) =>
    services.queues.get(request.params.id),
  );

  app.post("/queue", { schema: { tags, body: queueInputSchema, response: { 200: queueSchema } } }, (request) =>
    services.queues.create(actorOf(request), request.body),
  );

  app.put(
    "/queue/:id",
    { schema: { tags, params: idParamsSchema, body: queueUpdateSchema, response: { 200: queueSchema } } },
    (request) => services.queues.update(actorOf(request), request.params.id, request.body),
  );

  app.delete("/queue/:id", { schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } }, async (request) => {
    await services.queues.remove(actorOf(request), request.params.id);
    return { message: "Queue deleted" };
  });
};
