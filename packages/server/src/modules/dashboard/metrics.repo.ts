import type { BusinessSchedule } from "@zapdesk/core";
import { and, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queues, tickets } from "../../db/schema.js";

export interface MetricsWhere {
  access: SQL | undefined;
  tz: string;
  /** Inclusive local dates, yyyy-MM-dd. */
  from: string;
  to: string;
  queueId?: number;
  userId?: number;
}

/** Tickets created in the period (viewer's time zone) that the viewer may see, with the filters; never groups. */
export function metricsWhere(w: MetricsWhere): SQL {
  return and(
    w.access,
    sql`${tickets.createdAt} >= (${w.from}::date::timestamp at time zone ${w.tz})`,
    sql`${tickets.createdAt} < ((${w.to}::date + 1)::timestamp at time zone ${w.tz})`,
    eq(tickets.isGroup, false),
    w.queueId === undefined ? undefined : eq(tickets.queueId, w.queueId),
    w.userId === undefined ? undefined : eq(tickets.userId, w.userId),
  ) as SQL;
}

const ms = (end: SQL) => sql`(extract(epoch from (${end} - "created_at")) * 1000)`;
const stats = (name: string, value: SQL, present: SQL) => sql`
  percentile_cont(0.5) within group (order by ${value}) as ${sql.identifier(`${name}_median`)},
  percentile_cont(0.9) within group (order by ${value}) as ${sql.identifier(`${name}_p90`)},
  (count(*) filter (where ${present}))::int as ${sql.identifier(`${name}_count`)}`;

export interface AggregateRow {
  grouping: number;
  day: string | null;
  queue_id: number | null;
  user_id: number | null;
  tickets: number;
  fr_median: number | null;
  fr_p90: number | null;
  fr_count: number;
  res_median: number | null;
  res_p90: number | null;
  res_count: number;
  wait_median: number | null;
  wait_p90: number | null;
  wait_count: number;
}

/**
 * Medians and 90th percentiles per local day, per queue, per agent and overall, in one pass over
 * the stored timestamps (tickets_metrics_idx): no message is read. Waiting here is wall-clock
 * time; the service recomputes it in business time when a queue of the period has a schedule.
 */
export function aggregateMetricsSql(where: SQL, tz: string): SQL {
  const waitEnd = sql`least("first_response_at", "accepted_at")`;
  return sql`
    with base as (
      select
        ("created_at" at time zone ${tz})::date as "day",
        "queue_id", "user_id",
        ${ms(sql`"first_response_at"`)} as "fr",
        ${ms(sql`"closed_at"`)} as "res",
        ${ms(waitEnd)} as "wait"
      from ${tickets}
      where ${where}
    )
    select
      grouping("day", "queue_id", "user_id")::int as "grouping",
      to_char("day", 'YYYY-MM-DD') as "day", "queue_id", "user_id",
      count(*)::int as "tickets",
      ${stats("fr", sql`"fr"`, sql`"fr" is not null`)},
      ${stats("res", sql`"res"`, sql`"res" is not null`)},
      ${stats("wait", sql`"wait"`, sql`"wait" is not null`)}
    from base
    group by grouping sets (("day"), ("queue_id"), ("user_id"), ())
  `;
}

export async function aggregateMetrics(db: Db, where: SQL, tz: string): Promise<AggregateRow[]> {
  const result = await db.execute(aggregateMetricsSql(where, tz));
  return (result as unknown as { rows: AggregateRow[] }).rows;
}

export interface WaitRow {
  day: string;
  queueId: number | null;
  userId: number | null;
  createdAt: Date;
  answeredAt: Date;
}

/** Each answered ticket's wait bounds (for business time), from the same index. */
export function waitRowsQuery(db: Db, where: SQL, tz: string) {
  return db
    .select({
      day: sql<string>`to_char((${tickets.createdAt} at time zone ${tz})::date, 'YYYY-MM-DD')`,
      queueId: tickets.queueId,
      userId: tickets.userId,
      createdAt: tickets.createdAt,
      answeredAt: sql<Date | string>`least(${tickets.firstResponseAt}, ${tickets.acceptedAt})`,
    })
    .from(tickets)
    .where(and(where, sql`coalesce(${tickets.firstResponseAt}, ${tickets.acceptedAt}) is not null`));
}

export async function waitRows(db: Db, where: SQL, tz: string): Promise<WaitRow[]> {
  const rows = await waitRowsQuery(db, where, tz);
  return rows.map((r) => ({ ...r, answeredAt: new Date(r.answeredAt) }));
}

/** The schedules of the given queues (only those that have one). */
export async function queueSchedules(db: Db, queueIds: number[] | "all"): Promise<Map<number, BusinessSchedule>> {
  if (queueIds !== "all" && queueIds.length === 0) return new Map();
  const rows = await db
    .select({ id: queues.id, schedule: queues.schedule })
    .from(queues)
    .where(and(isNotNull(queues.schedule), queueIds === "all" ? undefined : inArray(queues.id, queueIds)));
  return new Map(rows.map((q) => [q.id, q.schedule as BusinessSchedule]));
}
