import { contactSchema, resolveContactSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

export const contactWhatsAppRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["contacts"];

  app.post("/contact", { schema: { tags, body: resolveContactSchema, response: { 200: contactSchema } } }, (request) =>
    services.contactWhatsApp.resolve(request.body),
  );
  app.post(
    "/contacts/import",
    { schema: { tags, response: { 200: z.object({ imported: z.number(), total: z.number() }) } } },
    (request) => services.contactWhatsApp.importFromPhone(actorOf(request)),
  );
};
