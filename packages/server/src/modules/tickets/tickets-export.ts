import { isAdmin, type MetricsQuery } from "@zapdesk/core";
import { and, asc, eq, gt } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.js";
import { closingReasons, contacts, queues, tickets, users } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { closingWhere, reportPeriod } from "../closing-reasons/closing-report.js";
import type { AuthUser } from "../users/users.repo.js";
import { ticketListWhere } from "./ticket-list.repo.js";

/** The export's columns, in order (docs/closing-reasons.md). */
export const TICKET_CSV_COLUMNS = [
  "id",
  "protocol",
  "status",
  "contact",
  "queue",
  "agent",
  "createdAt",
  "closedAt",
  "closingReason",
  "closingValue",
] as const;

const PAGE = 500;
const closer = alias(users, "closer");

function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  // A cell a spreadsheet would run as a formula is prefixed (CSV injection).
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A value as written in the file: two decimals, a dot (what spreadsheets and scripts read alike). */
const money = (value: number | null) => (value === null ? "" : value.toFixed(2));

/**
 * Issue 23 §6: the tickets last closed in a period that the viewer may see (the dashboard's rule
 * and filters), by ticket id, with their closing reason and value. Read 500 at a time (keyset on
 * the id) as the client takes them.
 */
export function createTicketExport(deps: { db: Db; clock: Clock }) {
  return {
    period: (query: MetricsQuery) => reportPeriod(query, deps.clock.now()),

    async *csv(actor: AuthUser, query: MetricsQuery): AsyncGenerator<string> {
      const { from, to } = reportPeriod(query, deps.clock.now());
      const access = ticketListWhere({ actor: { id: actor.id, admin: isAdmin(actor), queueIds: actor.queueIds }, showAll: true });
      const where = closingWhere({ access, tz: query.tz, from, to, queueId: query.queueId, userId: query.userId });
      yield `${TICKET_CSV_COLUMNS.join(",")}\n`;
      let after = 0;
      for (;;) {
        const rows = await deps.db
          .select({
            id: tickets.id,
            protocol: tickets.protocol,
            status: tickets.status,
            contact: contacts.name,
            queue: queues.name,
            agent: closer.name,
            createdAt: tickets.createdAt,
            closingAt: tickets.closingAt,
            reason: closingReasons.name,
            value: tickets.closingValue,
          })
          .from(tickets)
          .innerJoin(contacts, eq(contacts.id, tickets.contactId))
          .leftJoin(queues, eq(queues.id, tickets.queueId))
          .leftJoin(closer, eq(closer.id, tickets.closingUserId))
          .leftJoin(closingReasons, eq(closingReasons.id, tickets.closingReasonId))
          .where(and(where, gt(tickets.id, after)))
          .orderBy(asc(tickets.id))
          .limit(PAGE);
        for (const r of rows) {
          yield `${[
            r.id,
            r.protocol,
            r.status,
            r.contact,
            r.queue,
            r.agent,
            r.createdAt.toISOString(),
            r.closingAt?.toISOString(),
            r.reason,
            money(r.value === null ? null : Number(r.value)),
          ]
            .map(csvCell)
            .join(",")}\n`;
        }
        if (rows.length < PAGE) return;
        after = rows[rows.length - 1].id;
      }
    },
  };
}

export type TicketExport = ReturnType<typeof createTicketExport>;
