import { Readable } from "node:stream";
import { auditFilterSchema, auditListQuerySchema, auditListSchema } from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.js";
import { requirePermission } from "../../http/auth.js";
import { recordAudit } from "./audit.js";
import { auditCsv, checkRange, listAudit } from "./audit.repo.js";

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
      checkRange(filter);
      await recordAudit(db, { action: "audit.exported", details: { filter } });
      // Read page by page (500 entries) as the client takes them: memory stays flat whatever the size.
      const body = Readable.from(auditCsv(db, filter));
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
