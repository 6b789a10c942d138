import {
  deletedSchema,
  notificationPreferencesInputSchema,
  notificationPreferencesSchema,
  pushEndpointSchema,
  pushKeySchema,
  pushSubscriptionInputSchema,
  pushSubscriptionSchema,
} from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

/** Issue 13 item 7: web push subscriptions and the signed-in user's notification preferences. */
export const pushRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  const tags = ["push"];
  const { push } = services;

  // The VAPID public key is public by nature (the browser's applicationServerKey); null when push is off.
  app.get("/push/key", { schema: { tags, response: { 200: pushKeySchema } } }, () => ({ publicKey: push.publicKey }));

  app.get(
    "/push/subscriptions",
    {
      onRequest: authenticate,
      schema: { tags, response: { 200: z.object({ subscriptions: z.array(pushSubscriptionSchema) }) } },
    },
    async (request) => ({ subscriptions: await push.listSubscriptions(actorOf(request).id) }),
  );

  app.post(
    "/push/subscriptions",
    { onRequest: authenticate, schema: { tags, body: pushSubscriptionInputSchema, response: { 200: pushSubscriptionSchema } } },
    (request) => push.subscribe(actorOf(request).id, request.body),
  );

  app.delete(
    "/push/subscriptions",
    { onRequest: authenticate, schema: { tags, body: pushEndpointSchema, response: { 200: deletedSchema } } },
    async (request) => {
      await push.unsubscribe(actorOf(request).id, request.body.endpoint);
      return { message: "Push subscription deleted" };
    },
  );

  app.get(
    "/me/notification-preferences",
    { onRequest: authenticate, schema: { tags, response: { 200: notificationPreferencesSchema } } },
    (request) => push.getPreferences(actorOf(request).id),
  );

  app.put(
    "/me/notification-preferences",
    {
      onRequest: authenticate,
      schema: { tags, body: notificationPreferencesInputSchema, response: { 200: notificationPreferencesSchema } },
    },
    (request) => push.updatePreferences(actorOf(request).id, request.body),
  );
};
