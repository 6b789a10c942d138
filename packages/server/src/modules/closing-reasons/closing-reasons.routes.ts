import { Readable } from "node:stream";
import {
  closingChoiceSchema,
  closingReasonInputSchema,
  closingReasonListSchema,
  closingReasonSchema,
  closingReasonUpdateSchema,
  closingReportQuerySchema,
  closingReportSchema,
  deletedSchema,
  idParamsSchema,
  ticketExportQuerySchema,
  ticketSchema,
} from "@zapdesk/core";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import { clientGone } from "../../lib/heavy-reads.js";
import type { RouteContext } from "../../services.js";

/** Issue 23 §6: the list of closing reasons, the dashboard's report and the tickets export. */
export const closingReasonRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, context) => {
  const { services, authenticate, heavyReads } = context;

  // The API token's close: its own plugin, authorised by userApiToken only (like POST /messages/send).
  app.register(async (plugin) => {
    const api = plugin.withTypeProvider<ZodTypeProvider>();
    api.post(
      "/tickets/:id/close",
      {
        schema: {
          tags: ["tickets"],
          description:
            "Bearer userApiToken. Resolves an open ticket (or corrects a closed one's reason) with `{ closingReasonId, closingValue }`; " +
            "the ticket's queue may require a reason (400 ERR_CLOSING_REASON_REQUIRED).",
          params: idParamsSchema,
          body: closingChoiceSchema,
          response: { 200: ticketSchema },
        },
      },
      async (request) => {
        await services.apiSend.authorize(request.headers.authorization, request.ip);
        return services.apiClose(request.params.id, request.body);
      },
    );
  });

  app.register(async (plugin) => {
    const secured = plugin.withTypeProvider<ZodTypeProvider>();
    secured.addHook("onRequest", authenticate);
    const tags = ["closing-reasons"];
    const reasons = services.closingReasons;

    secured.get("/closing-reasons", { schema: { tags, response: { 200: closingReasonListSchema } } }, () => reasons.list());
    secured.post(
      "/closing-reasons",
      { schema: { tags, body: closingReasonInputSchema, response: { 200: closingReasonSchema } } },
      (request) => reasons.create(actorOf(request), request.body),
    );
    secured.put(
      "/closing-reasons/:id",
      { schema: { tags, params: idParamsSchema, body: closingReasonUpdateSchema, response: { 200: closingReasonSchema } } },
      (request) => reasons.update(actorOf(request), request.params.id, request.body),
    );
    secured.delete(
      "/closing-reasons/:id",
      {
        schema: {
          tags,
          description: "Refused with 409 ERR_CLOSING_REASON_IN_USE while a ticket carries the reason: archive it instead.",
          params: idParamsSchema,
          response: { 200: deletedSchema },
        },
      },
      async (request) => {
        await reasons.remove(actorOf(request), request.params.id);
        return { message: "Closing reason deleted" };
      },
    );

    secured.get(
      "/dashboard/closing-reasons",
      {
        schema: {
          tags: ["dashboard"],
          summary: "Closes with a reason in a period: counts and value sums per reason, per queue and per agent",
          querystring: closingReportQuerySchema,
          response: { 200: closingReportSchema },
        },
      },
      (request) =>
        heavyReads.run(actorOf(request).id, () => services.closingReport(actorOf(request), request.query), clientGone(request)),
    );

    secured.get(
      "/tickets/export",
      {
        schema: {
          tags: ["tickets"],
          description:
            "CSV of the tickets last closed in the period that the user may see (the dashboard's filters), " +
            "with their closing reason and value.",
          querystring: ticketExportQuerySchema,
        },
      },
      async (request, reply) => {
        const { from, to } = services.ticketExport.period(request.query);
        const body = Readable.from(services.ticketExport.csv(actorOf(request), request.query));
        return reply
          .headers({
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": `attachment; filename="tickets-${from}-${to}.csv"`,
            "cache-control": "no-store",
          })
          .send(body);
      },
    );
  });
};
