import { deletedSchema, idParamsSchema, tagInputSchema, tagListSchema, tagSchema, tagUpdateSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

export const tagRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["tags"];

  app.get("/tags", { schema: { tags, response: { 200: tagListSchema } } }, () => services.tags.list());

  app.post("/tags", { schema: { tags, body: tagInputSchema, response: { 200: tagSchema } } }, (request) =>
    services.tags.create(actorOf(request), request.body),
  );

  app.put(
    "/tags/:id",
    { schema: { tags, params: idParamsSchema, body: tagUpdateSchema, response: { 200: tagSchema } } },
    (request) => services.tags.update(actorOf(request), request.params.id, request.body),
  );

  app.delete("/tags/:id", { schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } }, async (request) => {
    await services.tags.remove(actorOf(request), request.params.id);
    return { message: "Tag deleted" };
  });
};
