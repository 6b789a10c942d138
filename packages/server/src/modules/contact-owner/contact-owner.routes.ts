import { contactOwnerSetSchema, contactSchema, idParamsSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

/** Issue 23 §5: PUT /contacts/:id/owner (docs/contact-owner.md). */
export const contactOwnerRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  app.put(
    "/contacts/:id/owner",
    {
      schema: {
        tags: ["contacts"],
        summary: "Set or clear a contact's owner",
        description:
          "`{ userId }` or `{ userId: null }`. Admins set anyone; an agent takes an unowned contact for themself " +
          "or lets go of their own (403 ERR_CONTACT_OWNER_ADMIN_ONLY, 409 ERR_CONTACT_OWNER_TAKEN).",
        params: idParamsSchema,
        body: contactOwnerSetSchema,
        response: { 200: contactSchema },
      },
    },
    (request) => services.contactOwner.set(actorOf(request), request.params.id, request.body.userId),
  );
};
