import {
  deletedSchema,
  idParamsSchema,
  webhookCreatedSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookInputSchema,
  webhookListSchema,
  webhookSchema,
  webhookSecretSchema,
  webhookUpdateSchema,
} from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import type { WebhookService } from "./webhooks.service.js";

/**
 * Outbound webhooks, admin only. (Meta's inbound Cloud API webhook is `/webhooks/whatsapp/:connectionId`,
 * in modules/webhooks: a static segment, so the two never collide.)
 */
export const outboundWebhookRoutes: FastifyPluginAsyncZod<{
  authenticate: onRequestHookHandler;
  webhooks: WebhookService;
}> = async (app, { authenticate, webhooks }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["webhooks"];

  app.get("/webhooks", { schema: { tags, response: { 200: webhookListSchema } } }, (request) => webhooks.list(actorOf(request)));

  app.post(
    "/webhooks",
    {
      schema: {
        tags,
        description:
          "Admin only: register a URL for events. The answer carries the signing `secret`, shown this once; private and loopback targets are refused unless the setting webhookAllowPrivate is enabled.",
        body: webhookInputSchema,
        response: { 200: webhookCreatedSchema },
      },
    },
    (request) => webhooks.create(actorOf(request), request.body),
  );

  app.get("/webhooks/:id", { schema: { tags, params: idParamsSchema, response: { 200: webhookSchema } } }, (request) =>
    webhooks.get(actorOf(request), request.params.id),
  );

  app.put(
    "/webhooks/:id",
    { schema: { tags, params: idParamsSchema, body: webhookUpdateSchema, response: { 200: webhookSchema } } },
    (request) => webhooks.update(actorOf(request), request.params.id, request.body),
  );

  app.delete("/webhooks/:id", { schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } }, async (request) => {
    await webhooks.remove(actorOf(request), request.params.id);
    return { message: "Webhook deleted" };
  });

  app.post(
    "/webhooks/:id/rotate-secret",
    {
      schema: {
        tags,
        description: "Admin only: a new signing secret, shown this once; the old one stops signing at once.",
        params: idParamsSchema,
        response: { 200: webhookSecretSchema },
      },
    },
    (request) => webhooks.rotateSecret(actorOf(request), request.params.id),
  );

  app.get(
    "/webhooks/:id/deliveries",
    {
      schema: {
        tags,
        description: "Admin only: the webhook's deliveries, newest first, with their last attempt.",
        params: idParamsSchema,
        querystring: webhookDeliveryListQuerySchema,
        response: { 200: webhookDeliveryListSchema },
      },
    },
    (request) => webhooks.deliveries(actorOf(request), request.params.id, request.query),
  );

  app.post(
    "/webhooks/deliveries/:id/resend",
    {
      schema: {
        tags,
        description: "Admin only: queue a failed delivery again.",
        params: idParamsSchema,
        response: { 200: webhookDeliverySchema },
      },
    },
    (request) => webhooks.resend(actorOf(request), request.params.id),
  );
};
