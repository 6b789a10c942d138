import {
  mentionableListSchema,
  mentionableQuerySchema,
  noteMentionListSchema,
  noteMentionParamsSchema,
  noteMentionsReadSchema,
  ticketIdParamsSchema,
} from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

/** Issue 11: the mention side of private notes (a note itself is `POST /messages/:ticketId { isNote: true }`). */
export const noteRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["notes"];

  app.get(
    "/notes/:ticketId/mentionable",
    {
      schema: {
        tags,
        description: "Colleagues who may see the ticket, for the note composer's @ picker (the caller excluded).",
        params: ticketIdParamsSchema,
        querystring: mentionableQuerySchema,
        response: { 200: mentionableListSchema },
      },
    },
    async (request) => ({
      users: await services.notes.mentionable(actorOf(request), request.params.ticketId, request.query.searchParam),
    }),
  );

  app.get(
    "/notes/mentions",
    {
      schema: {
        tags,
        description: "The caller's newest 50 mentions in notes on tickets they may still see, and the unread count.",
        response: { 200: noteMentionListSchema },
      },
    },
    (request) => services.notes.listMentions(actorOf(request)),
  );

  app.post(
    "/notes/mentions/:id/read",
    { schema: { tags, params: noteMentionParamsSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await services.notes.markRead(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/notes/mentions/read",
    {
      schema: {
        tags,
        description: "Mark every unread mention of the caller read (or only those on `ticketId`).",
        body: noteMentionsReadSchema,
        response: { 200: z.object({ updated: z.number() }) },
      },
    },
    async (request) => ({ updated: await services.notes.markAllRead(actorOf(request), request.body.ticketId) }),
  );
};
