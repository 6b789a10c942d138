import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { tickets, users } from "../../db/schema.js";

type Bucket = { key: number; count: number };

const local = (column: SQL | typeof tickets.createdAt, tz: string) => sql`(${column} at time zone ${tz})`;

/** Aggregations over the tickets a viewer may see (`access`), in the viewer's time zone. */
export async function dashboardFigures(db: Db, options: { access: SQL | undefined; tz: string; now: Date; month: string }) {
  const { access, tz, now, month } = options;
  const today = sql`(${now.toISOString()}::timestamptz at time zone ${tz})::date`;
  const monthStart = sql`(${`${month}-01`}::date)`;

  const counts = db
    .select({ status: tickets.status, count: sql<number>`count(*)::int` })
    .from(tickets)
    .where(access)
    .groupBy(tickets.status);

  const byHour = db
    .select({ key: sql<number>`extract(hour from ${local(tickets.createdAt, tz)})::int`, count: sql<number>`count(*)::int` })
    .from(tickets)
    .where(
      and(
        access,
        sql`${tickets.createdAt} >= (${today}::timestamp at time zone ${tz})`,
        sql`${tickets.createdAt} < ((${today} + 1)::timestamp at time zone ${tz})`,
      ),
    )
    .groupBy(sql`1`);

  const byDay = db
    .select({ key: sql<number>`extract(day from ${local(tickets.createdAt, tz)})::int`, count: sql<number>`count(*)::int` })
    .from(tickets)
    .where(
      and(
        access,
        sql`${tickets.createdAt} >= (${monthStart}::timestamp at time zone ${tz})`,
        sql`${tickets.createdAt} < ((${monthStart} + interval '1 month')::timestamp at time zone ${tz})`,
      ),
    )
    .groupBy(sql`1`);

  // A closed ticket's last update is its closing.
  const closedByMonth = db
    .select({ key: sql<number>`extract(month from ${local(tickets.updatedAt, tz)})::int`, count: sql<number>`count(*)::int` })
    .from(tickets)
    .where(
      and(
        access,
        eq(tickets.status, "closed"),
        sql`extract(year from ${local(tickets.updatedAt, tz)}) = extract(year from ${today})`,
      ),
    )
    .groupBy(sql`1`);

  const closedByUser = db
    .select({ userId: users.id, name: users.name, count: sql<number>`count(*)::int` })
    .from(tickets)
    .innerJoin(users, eq(users.id, tickets.userId))
    .where(and(access, eq(tickets.status, "closed")))
    .groupBy(users.id, users.name)
    .orderBy(sql`3 desc`, users.name);

  const [statusRows, hourRows, dayRows, monthRows, userRows] = await Promise.all([
    counts,
    byHour,
    byDay,
    closedByMonth,
    closedByUser,
  ]);
  return {
    counts: Object.fromEntries(statusRows.map((r) => [r.status, r.count])) as Record<string, number>,
    byHour: hourRows as Bucket[],
    byDay: dayRows as Bucket[],
    closedByMonth: monthRows as Bucket[],
    closedByUser: userRows,
  };
}
