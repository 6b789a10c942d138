import {
  contactChangeListSchema,
  contactInputSchema,
  contactListQuerySchema,
  contactListSchema,
  contactMergeSchema,
  contactSchema,
  contactUpdateSchema,
  deletedSchema,
  idParamsSchema,
} from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import { clientGone } from "../../lib/heavy-reads.js";
import type { RouteContext } from "../../services.js";

export const contactRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate, heavyReads }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["contacts"];

  app.get(
    "/contacts",
    { schema: { tags, querystring: contactListQuerySchema, response: { 200: contactListSchema } } },
    (request) =>
      // A search is a heavy read (issue 19): one per user in flight.
      request.query.searchParam
        ? heavyReads.run(actorOf(request).id, () => services.contacts.list(actorOf(request), request.query), clientGone(request))
        : services.contacts.list(actorOf(request), request.query),
  );

  app.get("/contacts/:id", { schema: { tags, params: idParamsSchema, response: { 200: contactSchema } } }, (request) =>
    services.contacts.get(request.params.id),
  );

  app.post("/contacts", { schema: { tags, body: contactInputSchema, response: { 200: contactSchema } } }, (request) =>
    services.contacts.create(request.body),
  );

  app.put(
    "/contacts/:id",
    { schema: { tags, params: idParamsSchema, body: contactUpdateSchema, response: { 200: contactSchema } } },
    (request) => services.contacts.update(actorOf(request), request.params.id, request.body),
  );

  app.get(
    "/contacts/:id/changes",
    { schema: { tags, params: idParamsSchema, response: { 200: contactChangeListSchema } } },
    async (request) => ({ changes: await services.contacts.changes(actorOf(request), request.params.id) }),
  );

  app.post(
    "/contacts/:id/merge",
    {
      onRequest: requirePermission("contacts:merge"),
      schema: {
        tags,
        summary: "Merge a duplicate contact of one person into this one (admins)",
        params: idParamsSchema,
        body: contactMergeSchema,
        response: { 200: contactSchema },
      },
    },
    (request) => services.identity.merge(actorOf(request), request.params.id, request.body.duplicateId),
  );

  app.delete("/contacts/:id", { schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } }, async (request) => {
    await services.contacts.remove(actorOf(request), request.params.id);
    return { message: "Contact deleted" };
  });
};
