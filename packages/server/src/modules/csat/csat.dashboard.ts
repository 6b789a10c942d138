import { type DashboardQuery, isAdmin, type RatingDashboard, type RatingFigures } from "@zapdesk/core";
import { and, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queues, tickets, users } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { ticketListWhere } from "../tickets/ticket-list.repo.js";
import type { AuthUser } from "../users/users.repo.js";

/** count, sum and one count per answer: the figures of a group of rated tickets. */
const aggregates = {
  count: sql<number>`count(*)::int`,
  total: sql<number>`sum(${tickets.rating})::int`,
  r1: sql<number>`(count(*) filter (where ${tickets.rating} = 1))::int`,
  r2: sql<number>`(count(*) filter (where ${tickets.rating} = 2))::int`,
  r3: sql<number>`(count(*) filter (where ${tickets.rating} = 3))::int`,
  r4: sql<number>`(count(*) filter (where ${tickets.rating} = 4))::int`,
  r5: sql<number>`(count(*) filter (where ${tickets.rating} = 5))::int`,
};
type Aggregated = { count: number; total: number; r1: number; r2: number; r3: number; r4: number; r5: number };

function figures(rows: Aggregated[]): RatingFigures {
  const count = rows.reduce((n, r) => n + Number(r.count), 0);
  const total = rows.reduce((n, r) => n + Number(r.total ?? 0), 0);
  const sum = (key: "r1" | "r2" | "r3" | "r4" | "r5") => rows.reduce((n, r) => n + Number(r[key]), 0);
  return {
    count,
    average: count ? Math.round((total / count) * 100) / 100 : null,
    distribution: [sum("r1"), sum("r2"), sum("r3"), sum("r4"), sum("r5")],
  };
}

function currentMonth(now: Date, tz: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit" }).formatToParts(now);
  return `${parts.find((p) => p.type === "year")?.value}-${parts.find((p) => p.type === "month")?.value}`;
}

/**
 * Satisfaction over the tickets the viewer may see that were rated in the chosen month (the
 * viewer's time zone), per agent (the agent who resolved the conversation rated, issue 20) and per queue. Reads the
 * partial index on tickets(rated_at).
 */
export async function ratingFigures(db: Db, options: { access: SQL | undefined; tz: string; month: string }) {
  const monthStart = sql`(${`${options.month}-01`}::date)`;
  const where = and(
    options.access,
    isNotNull(tickets.ratedAt),
    sql`${tickets.ratedAt} >= (${monthStart}::timestamp at time zone ${options.tz})`,
    sql`${tickets.ratedAt} < ((${monthStart} + interval '1 month')::timestamp at time zone ${options.tz})`,
  );
  const [byUser, byQueue] = await Promise.all([
    db
      .select({ userId: tickets.ratedUserId, name: users.name, ...aggregates })
      .from(tickets)
      .leftJoin(users, eq(users.id, tickets.ratedUserId))
      .where(where)
      .groupBy(tickets.ratedUserId, users.name)
      .orderBy(sql`count(*) desc`, users.name),
    db
      .select({ queueId: tickets.queueId, name: queues.name, color: queues.color, ...aggregates })
      .from(tickets)
      .leftJoin(queues, eq(queues.id, tickets.queueId))
      .where(where)
      .groupBy(tickets.queueId, queues.name, queues.color)
      .orderBy(sql`count(*) desc`, queues.name),
  ]);
  return { byUser, byQueue };
}

export function createCsatDashboard(deps: { db: Db; clock: Clock }) {
  return async function ratings(actor: AuthUser, query: DashboardQuery): Promise<RatingDashboard> {
    const month = query.month ?? currentMonth(deps.clock.now(), query.tz);
    const access = ticketListWhere({ actor: { id: actor.id, admin: isAdmin(actor), queueIds: actor.queueIds }, showAll: true });
    const { byUser, byQueue } = await ratingFigures(deps.db, { access, tz: query.tz, month });
    return {
      overall: figures(byUser),
      byUser: byUser.map((r) => ({ userId: r.userId, name: r.name, ...figures([r]) })),
      byQueue: byQueue.map((r) => ({ queueId: r.queueId, name: r.name, color: r.color, ...figures([r]) })),
    };
  };
}

export type CsatDashboard = ReturnType<typeof createCsatDashboard>;
