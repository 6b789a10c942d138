import type { Db } from "../db/client.js";
import { importQuickAnswers, importTags } from "./answers-tags.js";
import { importConnections } from "./connections.js";
import { importContactOwners } from "./contact-owners.js";
import { importContacts } from "./contacts.js";
import { createRun, type ImportOptions, markImporting } from "./context.js";
import { importNotes, importRatings, importSchedules, importSettings } from "./extras.js";
import { MULTI_COMPANY } from "./flavours.js";
import { importLinks } from "./links.js";
import { importMessages, linkQuotes } from "./messages.js";
import type { ImportReport } from "./report.js";
import type { Source } from "./source.js";
import { importQueues, importUsers } from "./staff.js";
import { importTickets } from "./tickets.js";
import { verify } from "./verify.js";

export { type ImportOptions, sourceKey } from "./context.js";
export { originalTimestamp } from "./convert.js";
export { IMPORT_MEDIA_MISSING } from "./media.js";
export { ENTITIES, type Entity, type EntityCounts, type ImportReport, type Progress } from "./report.js";

class DryRunRollback extends Error {}

export class ImportUsageError extends Error {}

/**
 * Import a Whaticket-family database into Zapdesk: every entity in dependency order, each in
 * batches remembered in import_map (idempotent, resumable), then verified.
 */
export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const { source, flavour, database } = options;
  const company = MULTI_COMPANY.has(flavour) ? await pickCompany(source, options.company) : undefined;
  const run = await createRun(options, company);

  async function pipeline() {
    await importQueues(run);
    await importUsers(run);
    await importConnections(run);
    await importQuickAnswers(run);
    await importTags(run);
    await importContacts(run);
    await importContactOwners(run);
    await importTickets(run);
    await importLinks(run, {
      entity: "ticketTags",
      table: "TicketTags",
      left: { column: "ticketId", entity: "ticket" },
      right: { column: "tagId", entity: "tag" },
      target: "ticket_tags",
      targetLeft: "ticket_id",
      targetRight: "tag_id",
      parentTable: "Tickets",
    });
    await importMessages(run);
    await linkQuotes(run);
    await importRatings(run);
    await importSchedules(run);
    await importSettings(run);
    await importNotes(run);
  }

  try {
    if (options.dryRun) {
      await database.db
        .transaction(async (tx) => {
          await markImporting(tx as unknown as Db);
          run.outer = tx as unknown as Db;
          await pipeline();
          await verify(run, tx as unknown as Db);
          throw new DryRunRollback();
        })
        .catch((error) => {
          if (!(error instanceof DryRunRollback)) throw error;
        });
    } else {
      await pipeline();
      await verify(run, database.db);
    }
  } finally {
    run.outer = undefined;
  }
  run.report.finishedAt = new Date().toISOString();
  return run.report;
}

async function pickCompany(source: Source, wanted: number | undefined): Promise<number> {
  const companies = await source.query<{ id: number | string; name: string }>(
    `select "id", "name" from "Companies" order by "id"`,
  );
  if (wanted !== undefined) {
    if (!companies.some((c) => Number(c.id) === wanted)) {
      throw new ImportUsageError(
        `company ${wanted} is not in the source (it has ${companies.map((c) => `${c.id} "${c.name}"`).join(", ") || "none"})`,
      );
    }
    return wanted;
  }
  if (companies.length === 1) return Number((companies[0] as { id: number }).id);
  throw new ImportUsageError(
    `the source holds ${companies.length} companies: choose one with --company <id> (${companies.map((c) => `${c.id} "${c.name}"`).join(", ")})`,
  );
}
