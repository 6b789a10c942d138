import {
  closingChoiceSchema,
  deletedSchema,
  idParamsSchema,
  protocolResultSchema,
  ticketCreateSchema,
  ticketListQuerySchema,
  ticketListSchema,
  ticketNextQuerySchema,
  ticketNextSchema,
  ticketSchema,
  ticketUpdateSchema,
} from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../../http/auth.js";
import { clientGone } from "../../lib/heavy-reads.js";
import type { RouteContext } from "../../services.js";

export const ticketRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate, heavyReads }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["tickets"];
  const { tickets } = services;

  app.get(
    "/tickets",
    { schema: { tags, querystring: ticketListQuerySchema, response: { 200: ticketListSchema } } },
    (request) => {
      const actor = actorOf(request);
      // A search is a heavy read (issue 19): one per user in flight; the plain lists are not.
      if (!request.query.searchParam) return tickets.list(actor, request.query);
      return heavyReads.run(actor.id, () => tickets.list(actor, request.query), clientGone(request));
    },
  );
  // Issue 13: where an agent lands after Resolve, Return, Transfer or Protocolo.
  app.get(
    "/tickets/next",
    { schema: { tags, querystring: ticketNextQuerySchema, response: { 200: ticketNextSchema } } },
    (request) => tickets.next(actorOf(request), request.query.after),
  );
  app.get("/tickets/:id", { schema: { tags, params: idParamsSchema, response: { 200: ticketSchema } } }, (request) =>
    tickets.open(actorOf(request), request.params.id),
  );
  app.post("/tickets", { schema: { tags, body: ticketCreateSchema, response: { 200: ticketSchema } } }, (request) =>
    tickets.create(actorOf(request), request.body),
  );
  app.put(
    "/tickets/:id",
    { schema: { tags, params: idParamsSchema, body: ticketUpdateSchema, response: { 200: ticketSchema } } },
    (request) => tickets.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/tickets/:id", { schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } }, async (request) => {
    await tickets.remove(actorOf(request), request.params.id);
    return { message: "Ticket deleted" };
  });
  app.post(
    "/tickets/:id/protocol",
    {
      schema: {
        tags,
        description:
          "Optional body (issue 23 §6): `{ closingReasonId, closingValue }` when the ticket's queue asks for a reason.",
        params: idParamsSchema,
        body: closingChoiceSchema.nullish(),
        response: { 200: protocolResultSchema.extend({ webhook: z.enum(["sent", "failed", "skipped"]) }) },
      },
    },
    (request) => services.protocol(actorOf(request), request.params.id, request.body ?? {}),
  );
};
