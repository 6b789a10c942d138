import {
  deletedSchema,
  idParamsSchema,
  userCreateSchema,
  userListQuerySchema,
  userListSchema,
  userSchema,
  userUpdateSchema,
} from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

export const userRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["users"];

  app.get("/users", { schema: { tags, querystring: userListQuerySchema, response: { 200: userListSchema } } }, (request) =>
    services.users.list(request.query),
  );

  app.get("/users/:id", { schema: { tags, params: idParamsSchema, response: { 200: userSchema } } }, (request) =>
    services.users.get(request.params.id),
  );

  app.post("/users", { schema: { tags, body: userCreateSchema, response: { 200: userSchema } } }, (request) =>
    services.users.create(actorOf(request), request.body),
  );

  app.put(
    "/users/:id",
    { schema: { tags, params: idParamsSchema, body: userUpdateSchema, response: { 200: userSchema } } },
    (request) => services.users.update(actorOf(request), request.params.id, request.body, request.sessionId),
  );

  app.delete("/users/:id", { schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } }, async (request) => {
    await services.users.remove(actorOf(request), request.params.id);
    return { message: "User deleted" };
  });
};
