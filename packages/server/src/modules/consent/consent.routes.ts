import {
  consentConfigInputSchema,
  consentConfigSchema,
  consentConfigUpdateSchema,
  consentSettingsSchema,
  contactConsentSchema,
  deletedSchema,
  idParamsSchema,
  optOutWordsSchema,
} from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

/** Issue 22 §3: consent messages, opt-out words, and a contact's consent records. */
export const consentRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  const consent = services.consent;
  const tags = ["consent"];
  app.addHook("onRequest", authenticate);
  const admin = requirePermission("consent:manage");

  app.get(
    "/consent/settings",
    {
      onRequest: admin,
      schema: {
        tags,
        summary: "The install-wide opt-out words and every consent message (admins)",
        response: { 200: consentSettingsSchema },
      },
    },
    (request) => consent.settings(actorOf(request)),
  );
  app.put(
    "/consent/opt-out-words",
    {
      onRequest: admin,
      schema: {
        tags,
        summary: "Set the opt-out words (admins)",
        description:
          "A customer whose whole message is one of them (case, accents and punctuation aside) gets no automatic message (schedules, CSAT, API sends, bots) until they write again.",
        body: optOutWordsSchema,
        response: { 200: consentSettingsSchema },
      },
    },
    (request) => consent.setOptOutWords(actorOf(request), request.body.words),
  );
  app.post(
    "/consent/configs",
    {
      onRequest: admin,
      schema: {
        tags,
        summary: "Add the consent message of a connection or a queue (admins)",
        description:
          "Exactly one of whatsappId and queueId (400 ERR_CONSENT_SCOPE); one message per connection or queue (409 ERR_CONSENT_CONFIG_EXISTS). A queue's message replaces its connection's for the queue's conversations.",
        body: consentConfigInputSchema,
        response: { 200: consentConfigSchema },
      },
    },
    (request) => consent.create(actorOf(request), request.body),
  );
  app.put(
    "/consent/configs/:id",
    {
      onRequest: admin,
      schema: {
        tags,
        summary: "Change a consent message (admins)",
        params: idParamsSchema,
        body: consentConfigUpdateSchema,
        response: { 200: consentConfigSchema },
      },
    },
    (request) => consent.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    "/consent/configs/:id",
    {
      onRequest: admin,
      schema: {
        tags,
        summary: "Delete a consent message (admins); the answers recorded stay",
        params: idParamsSchema,
        response: { 200: deletedSchema },
      },
    },
    async (request) => {
      await consent.remove(actorOf(request), request.params.id);
      return { message: "Consent message deleted" };
    },
  );
  app.get(
    "/contacts/:id/consent",
    {
      schema: {
        tags: ["contacts", ...tags],
        summary: "A contact's consent records (newest first) and whether they opted out of automatic messages",
        params: idParamsSchema,
        response: { 200: contactConsentSchema },
      },
    },
    (request) => consent.ofContact(request.params.id),
  );
};
