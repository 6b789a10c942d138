import { settingKeyParamsSchema, settingSchema, settingUpdateSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

export const settingRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  const tags = ["settings"];

  app.get("/public-settings", { schema: { tags, response: { 200: z.array(settingSchema) } } }, () =>
    services.settings.listPublic(),
  );

  app.register(async (plugin) => {
    const secured = plugin.withTypeProvider<ZodTypeProvider>();
    secured.addHook("onRequest", authenticate);
    secured.get("/settings", { schema: { tags, response: { 200: z.array(settingSchema) } } }, (request) =>
      services.settings.list(actorOf(request)),
    );
    secured.put(
      "/settings/:key",
      { schema: { tags, params: settingKeyParamsSchema, body: settingUpdateSchema, response: { 200: settingSchema } } },
      (request) => services.settings.update(actorOf(request), request.params.key, request.body.value),
    );
    secured.post(
      "/settings/userApiToken/rotate",
      {
        schema: {
          tags,
          description: "Admin only: a new API token; the old one stops working at once.",
          response: { 200: settingSchema },
        },
      },
      (request) => services.settings.rotateApiToken(actorOf(request)),
    );
  });
};
