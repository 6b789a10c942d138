import {
  deletedSchema,
  idParamsSchema,
  quickAnswerInputSchema,
  quickAnswerListQuerySchema,
  quickAnswerListSchema,
  quickAnswerSchema,
  quickAnswerUpdateSchema,
} from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { RouteContext } from "../../services.js";

export const quickAnswerRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["quickAnswers"];

  app.get(
    "/quickAnswers",
    { schema: { tags, querystring: quickAnswerListQuerySchema, response: { 200: quickAnswerListSchema } } },
    (request) => services.quickAnswers.list(request.query),
  );

  app.get("/quickAnswers/:id", { schema: { tags, params: idParamsSchema, response: { 200: quickAnswerSchema } } }, (request) =>
    services.quickAnswers.get(request.params.id),
  );

  app.post("/quickAnswers", { schema: { tags, body: quickAnswerInputSchema, response: { 200: quickAnswerSchema } } }, (request) =>
    services.quickAnswers.create(request.body),
  );

  app.put(
    "/quickAnswers/:id",
    { schema: { tags, params: idParamsSchema, body: quickAnswerUpdateSchema, response: { 200: quickAnswerSchema } } },
    (request) => services.quickAnswers.update(request.params.id, request.body),
  );

  app.delete(
    "/quickAnswers/:id",
    { schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } },
    async (request) => {
      await services.quickAnswers.remove(request.params.id);
      return { message: "Quick answer deleted" };
    },
  );
};
