import { type ClosingReport, isAdmin, type MetricsQuery } from "@zapdesk/core";
import { and, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { closingReasons, queues, tickets, users } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { localDate } from "../dashboard/metrics.service.js";
import { ticketListWhere } from "../tickets/ticket-list.repo.js";
import type { AuthUser } from "../users/users.repo.js";

/** The metrics' period rule: `to` defaults to today (or `from` when later), `from` to the first of `to`'s month. */
export function reportPeriod(query: Pick<MetricsQuery, "from" | "to" | "tz">, now: Date): { from: string; to: string } {
  const today = localDate(now, query.tz);
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  return { from: query.from ?? `${to.slice(0, 8)}01`, to };
}

export interface ClosingWhere {
  access: SQL | undefined;
  tz: string;
  from: string;
  to: string;
  queueId?: number;
  userId?: number;
}

/**
 * The tickets the viewer may see (the dashboard's rule) whose last close falls in the period (the
 * viewer's time zone), optionally of one queue and one closing agent (tickets_closing_at_idx).
 */
export function closingWhere(w: ClosingWhere): SQL {
  return and(
    w.access,
    isNotNull(tickets.closingAt),
    sql`${tickets.closingAt} >= (${w.from}::date::timestamp at time zone ${w.tz})`,
    sql`${tickets.closingAt} < ((${w.to}::date + 1)::timestamp at time zone ${w.tz})`,
    w.queueId === undefined ? undefined : eq(tickets.queueId, w.queueId),
    w.userId === undefined ? undefined : eq(tickets.closingUserId, w.userId),
  ) as SQL;
}

interface Row {
  grouping: number;
  queue_id: number | null;
  user_id: number | null;
  reason_id: number;
  count: number;
  total: number | null;
}

// grouping(queue_id, closing_user_id): a bit is set for each column rolled up.
const BY_REASON = 0b11;
const BY_QUEUE = 0b01;
const BY_USER = 0b10;

/**
 * Issue 23 §6: the closes with a reason in the period, per reason, per queue and per agent (who
 * closed): counts, and the values summed (exactly, in numeric) for the reasons that ask for one.
 */
export function createClosingReport(deps: { db: Db; clock: Clock }) {
  const { db } = deps;
  return async function closingReport(actor: AuthUser, query: MetricsQuery): Promise<ClosingReport> {
    const { from, to } = reportPeriod(query, deps.clock.now());
    const access = ticketListWhere({ actor: { id: actor.id, admin: isAdmin(actor), queueIds: actor.queueIds }, showAll: true });
    const where = and(
      closingWhere({ access, tz: query.tz, from, to, queueId: query.queueId, userId: query.userId }),
      isNotNull(tickets.closingReasonId),
    );
    const result = await db.execute(sql`
      select grouping(${tickets.queueId}, ${tickets.closingUserId})::int as "grouping",
        ${tickets.queueId} as "queue_id", ${tickets.closingUserId} as "user_id", ${tickets.closingReasonId} as "reason_id",
        count(*)::int as "count", sum(${tickets.closingValue})::float8 as "total"
      from ${tickets}
      where ${where}
      group by grouping sets ((${tickets.closingReasonId}), (${tickets.queueId}, ${tickets.closingReasonId}),
        (${tickets.closingUserId}, ${tickets.closingReasonId}))
    `);
    const rows = (result as unknown as { rows: Row[] }).rows;
    const ids = (key: "queue_id" | "user_id") => [...new Set(rows.flatMap((r) => (r[key] === null ? [] : [r[key]])))];
    const [reasonRows, queueRows, userRows] = await Promise.all([
      db.select().from(closingReasons),
      ids("queue_id").length
        ? db
            .select({ id: queues.id, name: queues.name })
            .from(queues)
            .where(inArray(queues.id, ids("queue_id")))
        : [],
      ids("user_id").length
        ? db
            .select({ id: users.id, name: users.name })
            .from(users)
            .where(inArray(users.id, ids("user_id")))
        : [],
    ]);
    const reasons = new Map(reasonRows.map((r) => [r.id, r]));
    const queueNames = new Map(queueRows.map((q) => [q.id, q.name]));
    const userNames = new Map(userRows.map((u) => [u.id, u.name]));
    const figures = (r: Row) => {
      const reason = reasons.get(r.reason_id);
      return {
        reasonId: r.reason_id,
        name: reason?.name ?? "",
        archived: reason?.archived ?? false,
        asksValue: reason?.asksValue ?? false,
        count: Number(r.count),
        total: r.total === null ? null : Math.round(Number(r.total) * 100) / 100,
      };
    };
    const byCount = <T extends { count: number; name: string }>(a: T, b: T) => b.count - a.count || a.name.localeCompare(b.name);
    const nameOf = (names: Map<number, string>, id: number | null) => (id === null ? null : (names.get(id) ?? null));
    const grouped = (mask: number) => rows.filter((r) => Number(r.grouping) === mask);
    return {
      from,
      to,
      tz: query.tz,
      byReason: grouped(BY_REASON).map(figures).sort(byCount),
      byQueue: grouped(BY_QUEUE)
        .map((r) => ({ queueId: r.queue_id, queueName: nameOf(queueNames, r.queue_id), ...figures(r) }))
        .sort((a, b) => (a.queueName ?? "\uffff").localeCompare(b.queueName ?? "\uffff") || byCount(a, b)),
      byUser: grouped(BY_USER)
        .map((r) => ({ userId: r.user_id, userName: nameOf(userNames, r.user_id), ...figures(r) }))
        .sort((a, b) => (a.userName ?? "\uffff").localeCompare(b.userName ?? "\uffff") || byCount(a, b)),
    };
  };
}

export type ClosingReportService = ReturnType<typeof createClosingReport>;
