import { Readable } from "node:stream";
import { contactDataSummarySchema, contactErasedSchema, contactEraseSchema, idParamsSchema } from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import type { ContactDataService } from "./contact-data.service.js";

/** Issue 22 §2: a customer's data on request (admins: `contacts:exportData`, `contacts:erase`). */
export const contactDataRoutes: FastifyPluginAsyncZod<{ authenticate: onRequestHookHandler; data: ContactDataService }> = async (
  app,
  { authenticate, data },
) => {
  const tags = ["contacts"];
  app.addHook("onRequest", authenticate);

  app.get(
    "/contacts/:id/data/export",
    {
      onRequest: requirePermission("contacts:exportData"),
      schema: {
        tags,
        summary: "Everything held about a contact, as a zip (data.json and the files), streamed (admins)",
        description:
          "data.json: profile, extra info, tags, number history, ratings, scheduled messages, every ticket with its messages (internal notes marked), messages written in groups; media/: the files. The export is recorded in the audit trail.",
        params: idParamsSchema,
      },
    },
    async (request, reply) => {
      const { fileName, body } = await data.export(actorOf(request), request.params.id);
      return reply
        .headers({
          "content-type": "application/zip",
          "content-disposition": `attachment; filename="${fileName}"`,
          "cache-control": "no-store",
        })
        .send(Readable.from(body));
    },
  );

  app.get(
    "/contacts/:id/data/summary",
    {
      onRequest: requirePermission("contacts:erase"),
      schema: {
        tags,
        summary: "What erasing the contact would remove now, and whether a legal hold forbids it (admins)",
        params: idParamsSchema,
        response: { 200: contactDataSummarySchema },
      },
    },
    (request) => data.summary(actorOf(request), request.params.id),
  );

  app.post(
    "/contacts/:id/data/erase",
    {
      onRequest: requirePermission("contacts:erase"),
      schema: {
        tags,
        summary: "Erase the contact everywhere, irreversibly (admins)",
        description:
          "Deletes the contact, its tickets (open and pending ones too, without sending anything), messages, notes, files, ratings, scheduled messages, webhook deliveries, import mappings and channel records naming it, in one transaction; the files are removed after commit. `confirm` must be the contact's name or number; a legal hold on the contact or one of its tickets refuses it (409 ERR_CONTACT_LEGAL_HOLD). The audit trail keeps the counts, never the name or number.",
        params: idParamsSchema,
        body: contactEraseSchema,
        response: { 200: contactErasedSchema },
      },
    },
    (request) => data.erase(actorOf(request), request.params.id, request.body.confirm),
  );
};
