import { Readable } from "node:stream";
import { auditFilterSchema, auditListQuerySchema, auditListSchema } from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.js";
import { requirePermission } from "../../http/auth.js";
import { recordAudit } from "./audit.js";
import { auditCsv, listAudit } from "./audit.repo.js";

/** Issue 22 §4: the audit trail, read-only, for `audit:view` (admins). Nothing here edits or deletes it. */
export const auditRoutes: FastifyPluginAsyncZod<{ authenticate: onRequestHookHandler; db: Db }> = async (
  app,
  { authenticate, db },
) => {
  const tags = ["audit"];
  app.addHook("onRequest", authenticate);
  app.addHook("onRequest", requirePermission("audit:view"));

  app.get(
    "/audit",
    {
      schema: {
        tags,
        description: "Entries newest first, filtered; page on with `before` = the answer's `nextBefore`.",
        querystring: auditListQuerySchema,
        response: { 200: auditListSchema },
      },
    },
    (request) => {
      const { before, limit, ...filter } = request.query;
      return listAudit(db, filter, { before, limit });
    },
  );

  app.get(
    "/audit/export",
    {
      schema: {
        tags,
        description: "Every entry matching the filters as CSV, streamed newest first (the export itself is recorded).",
        querystring: auditFilterSchema,
      },
    },
    async (request, reply) => {
      const filter = request.query;
      const rows = auditCsv(db, filter);
      // The first chunk (the header) is read here, so a bad range answers 400 before the download starts.
      const first = await rows.next();
      await recordAudit(db, { action: "audit.exported", details: { filter } });
      const body = Readable.from(
        (async function* () {
          if (!first.done) yield first.value;
          yield* rows;
        })(),
      );
      return reply
        .headers({
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`,
          "cache-control": "no-store",
        })
        .send(body);
    },
  );
};
