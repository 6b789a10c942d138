import {
  businessMillisBetween,
  type DurationStats,
  isAdmin,
  type MetricFigures,
  type Metrics,
  type MetricsQuery,
} from "@zapdesk/core";
import { asc, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queues, users } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { ticketListWhere } from "../tickets/ticket-list.repo.js";
import type { AuthUser } from "../users/users.repo.js";
import { type AggregateRow, aggregateMetrics, metricsWhere, queueSchedules, type WaitRow, waitRows } from "./metrics.repo.js";

/** percentile_cont: linear interpolation between the closest ranks of the sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const position = p * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

function durations(values: number[]): DurationStats {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  return { median: round(percentile(sorted, 0.5)), p90: round(percentile(sorted, 0.9)), count: sorted.length };
}

const stat = (median: unknown, p90: unknown, count: unknown): DurationStats => ({
  median: median === null || median === undefined ? null : Math.round(Number(median)),
  p90: p90 === null || p90 === undefined ? null : Math.round(Number(p90)),
  count: Number(count ?? 0),
});

function figures(row: AggregateRow | undefined): MetricFigures {
  return {
    firstResponse: stat(row?.fr_median, row?.fr_p90, row?.fr_count),
    resolution: stat(row?.res_median, row?.res_p90, row?.res_count),
    waiting: stat(row?.wait_median, row?.wait_p90, row?.wait_count),
    tickets: Number(row?.tickets ?? 0),
  };
}

/** The local date (yyyy-MM-dd) of an instant in a time zone. */
export function localDate(now: Date, tz: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** Every date from `from` to `to`, inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

// grouping(day, queue_id, user_id): a bit is set for each column rolled up.
const BY_DAY = 0b011;
const BY_QUEUE = 0b101;
const BY_USER = 0b110;
const OVERALL = 0b111;

/** Business-time waits, grouped as the SQL groups them. */
function businessWaits(rows: WaitRow[], schedules: Awaited<ReturnType<typeof queueSchedules>>) {
  const groups = new Map<string, number[]>();
  const add = (key: string, value: number) => {
    const list = groups.get(key);
    if (list) list.push(value);
    else groups.set(key, [value]);
  };
  for (const row of rows) {
    const schedule = row.queueId === null ? null : (schedules.get(row.queueId) ?? null);
    const wait = businessMillisBetween(schedule, row.createdAt, row.answeredAt);
    add("all", wait);
    add(`d:${row.day}`, wait);
    add(`q:${row.queueId}`, wait);
    add(`u:${row.userId}`, wait);
  }
  return (key: string) => durations(groups.get(key) ?? []);
}

/**
 * Issue 13 dashboard metrics: first response, resolution and waiting (median, p90) of the tickets
 * created in the period that the viewer may see (the dashboard's own access rule), overall, per
 * local day, per queue and per agent (the ticket's agent).
 */
export function createMetricsService(deps: { db: Db; clock: Clock }) {
  const { db } = deps;
  return async function metrics(actor: AuthUser, query: MetricsQuery): Promise<Metrics> {
    const admin = isAdmin(actor);
    const today = localDate(deps.clock.now(), query.tz);
    const to = query.to ?? (query.from && query.from > today ? query.from : today);
    const from = query.from ?? `${to.slice(0, 8)}01`;
    const access = ticketListWhere({ actor: { id: actor.id, admin, queueIds: actor.queueIds }, showAll: true });
    const where = metricsWhere({ access, tz: query.tz, from, to, queueId: query.queueId, userId: query.userId });

    const [rows, schedules, queueOptions, userOptions] = await Promise.all([
      aggregateMetrics(db, where, query.tz),
      queueSchedules(db, "all"),
      db
        .select({ id: queues.id, name: queues.name })
        .from(queues)
        .where(admin ? undefined : inArray(queues.id, actor.queueIds.length ? actor.queueIds : [0]))
        .orderBy(asc(queues.name)),
      admin
        ? db.select({ id: users.id, name: users.name }).from(users).orderBy(asc(users.name))
        : Promise.resolve([{ id: actor.id, name: actor.name }]),
    ]);
    const grouped = (mask: number) => rows.filter((r) => r.grouping === mask);
    const dayRows = new Map(grouped(BY_DAY).map((r) => [r.day, r]));
    const queueRows = grouped(BY_QUEUE);
    const userRows = grouped(BY_USER);

    // Waiting counts business time where the ticket's queue has a schedule: recomputed per ticket, only then.
    let waiting: ((key: string) => DurationStats) | null = null;
    if (queueRows.some((r) => r.queue_id !== null && schedules.has(r.queue_id))) {
      waiting = businessWaits(await waitRows(db, where, query.tz), schedules);
    }
    const withWaiting = (row: AggregateRow | undefined, key: string): MetricFigures => {
      const f = figures(row);
      return waiting ? { ...f, waiting: waiting(key) } : f;
    };

    const queueNames = new Map(queueOptions.map((q) => [q.id, q.name]));
    const missingQueues = queueRows.flatMap((r) => (r.queue_id !== null && !queueNames.has(r.queue_id) ? [r.queue_id] : []));
    if (missingQueues.length) {
      for (const q of await db
        .select({ id: queues.id, name: queues.name })
        .from(queues)
        .where(inArray(queues.id, missingQueues))) {
        queueNames.set(q.id, q.name);
      }
    }
    const userNames = new Map(userOptions.map((u) => [u.id, u.name]));
    const missingUsers = userRows.flatMap((r) => (r.user_id !== null && !userNames.has(r.user_id) ? [r.user_id] : []));
    if (missingUsers.length) {
      for (const u of await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, missingUsers))) {
        userNames.set(u.id, u.name);
      }
    }
    const byName = <T extends { name: string | null }>(a: T, b: T) =>
      a.name === null ? 1 : b.name === null ? -1 : a.name.localeCompare(b.name);

    return {
      from,
      to,
      tz: query.tz,
      overall: withWaiting(grouped(OVERALL)[0], "all"),
      byDay: daysBetween(from, to).map((day) => ({ day, ...withWaiting(dayRows.get(day), `d:${day}`) })),
      byQueue: queueRows
        .map((r) => ({
          queueId: r.queue_id,
          name: r.queue_id === null ? null : (queueNames.get(r.queue_id) ?? null),
          ...withWaiting(r, `q:${r.queue_id}`),
        }))
        .sort(byName),
      byUser: userRows
        .map((r) => ({
          userId: r.user_id,
          name: r.user_id === null ? null : (userNames.get(r.user_id) ?? null),
          ...withWaiting(r, `u:${r.user_id}`),
        }))
        .sort(byName),
      options: { queues: queueOptions, users: userOptions },
    };
  };
}
