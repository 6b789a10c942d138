import { type BusinessSchedule, businessMillisBetween } from "@zapdesk/core";
import { and, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queues, tickets } from "../../db/schema.js";

export interface WaitingFigures {
  /** Tickets of the month that got a first answer. */
  answered: number;
  /** Their average wait before that answer, in business time of their queue (ms); null without any. */
  averageMs: number | null;
  /** Tickets of the month still waiting for a first answer. */
  unanswered: number;
}

/**
 * The dashboard's waiting time (issue 11 item 3): for the tickets created in `month` (the
 * viewer's time zone) that the viewer may see, the time from creation to the first answer by an
 * agent (a message from our side that is not automatic). When the ticket's queue has business
 * hours, only business time counts (a ticket opened on Friday night and answered on Monday at
 * 9:05 waited five minutes). Computed per ticket in TypeScript, over that month's tickets only.
 */
export async function waitingFigures(
  db: Db,
  options: { access: SQL | undefined; tz: string; month: string },
): Promise<WaitingFigures> {
  const { access, tz, month } = options;
  const monthStart = sql`(${`${month}-01`}::date)`;
  // Issue 13: the first answer is stamped on the ticket when it is written (tickets.first_response_at,
  // same rule: from our side, not automatic, not a private note), so no message is read here.
  const firstAnswer = tickets.firstResponseAt;
  const rows = await db
    .select({ createdAt: tickets.createdAt, queueId: tickets.queueId, answeredAt: firstAnswer })
    .from(tickets)
    .where(
      and(
        access,
        eq(tickets.isGroup, false),
        sql`${tickets.createdAt} >= (${monthStart}::timestamp at time zone ${tz})`,
        sql`${tickets.createdAt} < ((${monthStart} + interval '1 month')::timestamp at time zone ${tz})`,
      ),
    );
  const queueIds = [...new Set(rows.flatMap((r) => (r.queueId === null ? [] : [r.queueId])))];
  const scheduled = queueIds.length
    ? await db
        .select({ id: queues.id, schedule: queues.schedule })
        .from(queues)
        .where(and(inArray(queues.id, queueIds), isNotNull(queues.schedule)))
    : [];
  const schedules = new Map(scheduled.map((q) => [q.id, q.schedule as BusinessSchedule]));
  let answered = 0;
  let total = 0;
  for (const row of rows) {
    if (row.answeredAt === null) continue;
    const schedule = row.queueId === null ? null : (schedules.get(row.queueId) ?? null);
    total += businessMillisBetween(schedule, row.createdAt, row.answeredAt);
    answered += 1;
  }
  return { answered, averageMs: answered ? Math.round(total / answered) : null, unanswered: rows.length - answered };
}
