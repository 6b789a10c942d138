import { desc, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../packages/server/src/db/client.js";
import { type Read, sentOf } from "../packages/server/src/db/prepared.js";
import { contacts, queues, tickets, users, whatsapps } from "../packages/server/src/db/schema.js";
import { contactSearchSql } from "../packages/server/src/modules/contacts/contacts.repo.js";
import { aggregateMetricsSql, metricsWhere, waitRowsQuery } from "../packages/server/src/modules/dashboard/metrics.repo.js";
import { ticketMessagesRead } from "../packages/server/src/modules/messages/messages.repo.js";
import { searchPage, type TicketFilter, ticketListWhere } from "../packages/server/src/modules/tickets/ticket-list.repo.js";
import { presentableTicketRead } from "../packages/server/src/modules/tickets/tickets.repo.js";
import { CONTACT_TERM, PROBE_WORD } from "./corpus.js";
import type { DataSet } from "./generate.js";

export interface Plan {
  name: string;
  sql: string;
  plan: string;
  /** "Execution Time" reported by EXPLAIN ANALYZE, ms. */
  executionMs: number;
}

/**
 * The statements behind each scenario, built with the same schema and WHERE builder the server
 * uses (ticket-list.repo's ticketListWhere), so the plans are the plans of the measured requests.
 */
function statements(database: Database, data: DataSet) {
  const { db } = database;
  const agent = data.agentIds[0];
  const agentQueues = [data.queueIds[0], data.queueIds[1]];
  const ticketRows = (filter: TicketFilter) => {
    const where = ticketListWhere(filter);
    return {
      page: db
        .select({
          ticket: tickets,
          contact: { id: contacts.id, name: contacts.name, number: contacts.number, profilePicUrl: contacts.profilePicUrl },
          queue: { id: queues.id, name: queues.name, color: queues.color },
          user: { id: users.id, name: users.name },
          whatsapp: { id: whatsapps.id, name: whatsapps.name },
        })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .leftJoin(queues, eq(queues.id, tickets.queueId))
        .leftJoin(users, eq(users.id, tickets.userId))
        .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
        .where(where)
        .orderBy(desc(tickets.updatedAt), desc(tickets.id))
        .limit(40)
        .toSQL(),
      count: db.select({ value: sql<number>`count(*)::int` }).from(tickets).where(where).toSQL(),
    };
  };
  const actor = { id: agent, admin: false, queueIds: agentQueues };
  const inbox = ticketRows({ actor, status: "open", showAll: false, queueIds: agentQueues });
  const searchFilter = { actor, showAll: false, search: PROBE_WORD };
  // The search page is the server's own statement (page and count in one pass).
  const search = { page: searchPage(db, searchFilter, { limit: 40, offset: 0 }).toSQL() };

  // Opening a chat: the server's own two statements (sent in one round trip), as agent 0 reads them.
  const hot = data.hotTicketIds[0];
  const asBench = (read: Read<unknown>) => {
    const { text, values } = sentOf(read);
    return { sql: text, params: values };
  };
  const chatTicket = asBench(presentableTicketRead(db, hot));
  const chatPage = asBench(ticketMessagesRead(db, hot, { limit: 20, offset: 0 }, actor));

  const contactSearch = contactSearchSql(db, CONTACT_TERM);

  // Issue 13: the dashboard metrics over the last 30 days and the last year, as the admin (every ticket).
  const dialect = (db as unknown as { dialect: { sqlToQuery(s: SQL): { sql: string; params: unknown[] } } }).dialect;
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const metricsOver = (days: number) => metricsWhere({ access: undefined, tz: "UTC", from: day(days - 1), to: day(0) });

  return {
    "inbox page": inbox.page,
    "inbox count": inbox.count,
    "search page (with count)": search.page,
    "chat ticket": chatTicket,
    "chat page (with count)": chatPage,
    "contacts search (count and page)": contactSearch.search,
    "contacts page past the count's cap": contactSearch.page,
    "dashboard metrics 30 days": dialect.sqlToQuery(aggregateMetricsSql(metricsOver(30), "UTC")),
    "dashboard metrics 365 days": dialect.sqlToQuery(aggregateMetricsSql(metricsOver(365), "UTC")),
    "dashboard metrics 30 days, business-time rows": waitRowsQuery(db, metricsOver(30), "UTC").toSQL(),
  };
}

export async function explainAll(database: Database, data: DataSet): Promise<Plan[]> {
  const plans: Plan[] = [];
  for (const [name, statement] of Object.entries(statements(database, data))) {
    const rows = await database.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${statement.sql}`, statement.params);
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN);
    plans.push({ name, sql: statement.sql, plan, executionMs });
  }
  return plans;
}
