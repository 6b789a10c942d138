import { idParamsSchema, messageSchema, templateListSchema, templateSendSchema, ticketIdParamsSchema } from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import type { TemplateSend } from "../messages/template-send.js";
import type { TemplateService } from "./templates.service.js";

export interface TemplateRouteOptions {
  authenticate: onRequestHookHandler;
  templates: TemplateService;
  sendTemplate: TemplateSend;
}

/**
 * Cloud API templates: any signed-in user lists them (agents need them to write after 24 h);
 * refreshing them calls Meta with the connection's token, which is connection management.
 */
export const templateRoutes: FastifyPluginAsyncZod<TemplateRouteOptions> = async (app, options) => {
  const { templates, sendTemplate } = options;
  app.addHook("onRequest", options.authenticate);

  app.get(
    "/whatsapp/:id/templates",
    { schema: { tags: ["templates"], params: idParamsSchema, response: { 200: templateListSchema } } },
    (request) => templates.list(request.params.id),
  );

  app.post(
    "/whatsapp/:id/templates/sync",
    {
      onRequest: requirePermission("connections:manage"),
      schema: {
        tags: ["templates"],
        description:
          "Fetch the business account's approved templates from Meta, replacing the stored ones (admin: connections:manage).",
        params: idParamsSchema,
        response: { 200: templateListSchema },
      },
    },
    (request) => templates.sync(request.params.id),
  );

  app.post(
    "/messages/:ticketId/template",
    {
      schema: {
        tags: ["messages"],
        description: "Send an approved template (allowed after the 24-hour window closed).",
        params: ticketIdParamsSchema,
        body: templateSendSchema,
        response: { 201: messageSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await sendTemplate(actorOf(request), request.params.ticketId, request.body)),
  );
};
