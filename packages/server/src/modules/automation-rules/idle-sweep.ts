import { businessMillisBetween, IDLE_TRIGGERS } from "@zapdesk/core";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { automationRules, queues, ruleEvents } from "../../db/schema.js";

/** The no-reply triggers look this far back at most (the dry run's window too). */
const LOOKBACK_MS = 7 * 86_400_000;
const LIMIT = 500;

/**
 * Issue 23 §1, "no reply from the customer / from us for N minutes": for each enabled no-reply rule's
 * (trigger, minutes), the open and pending tickets whose last message (notes aside) is ours /
 * the customer's and older than N business minutes of the ticket's queue (its hours; none: every
 * minute counts) get one event. Its `dedupe_key` names the period (the trigger, the minutes and the
 * last message): a period fires once, however many processes sweep.
 */
export async function sweepIdleTickets(db: Db, now: Date): Promise<number> {
  const groups = await db
    .selectDistinct({ trigger: automationRules.trigger, minutes: automationRules.idleMinutes })
    .from(automationRules)
    .where(and(eq(automationRules.enabled, true), inArray(automationRules.trigger, [...IDLE_TRIGGERS])));
  let queued = 0;
  for (const { trigger, minutes } of groups) {
    if (!minutes) continue;
    const fromMe = trigger === "noReplyFromCustomer";
    const rows = (await db.execute(sql`
      select t.id as "ticketId", t.queue_id as "queueId", m.id as "messageId", m.created_at as "at"
      from tickets t
      cross join lateral (
        select id, from_me, created_at from messages
        where ticket_id = t.id and not is_note
        order by created_at desc, id desc limit 1
      ) m
      where t.status in ('open', 'pending') and m.from_me = ${fromMe}
        and m.created_at <= ${new Date(now.getTime() - minutes * 60_000).toISOString()}::timestamptz
        and m.created_at > ${new Date(now.getTime() - LOOKBACK_MS).toISOString()}::timestamptz
        and not exists (select 1 from rule_events e where e.dedupe_key = ${`${trigger}:${minutes}:`} || m.id)
      limit ${LIMIT}`)) as unknown as { rows: { ticketId: number; queueId: number | null; messageId: string; at: string }[] };
    if (!rows.rows.length) continue;
    const queueIds = [...new Set(rows.rows.map((r) => r.queueId).filter((id): id is number => id !== null))];
    const schedules = new Map(
      queueIds.length
        ? (await db.select({ id: queues.id, schedule: queues.schedule }).from(queues).where(inArray(queues.id, queueIds))).map(
            (q) => [q.id, q.schedule] as const,
          )
        : [],
    );
    const due = rows.rows.filter(
      (r) => businessMillisBetween(r.queueId === null ? null : schedules.get(r.queueId), new Date(r.at), now) >= minutes * 60_000,
    );
    if (!due.length) continue;
    const inserted = await db
      .insert(ruleEvents)
      .values(
        due.map((r) => ({
          kind: trigger,
          ticketId: r.ticketId,
          messageId: Number(r.messageId),
          idleMinutes: minutes,
          dedupeKey: `${trigger}:${minutes}:${r.messageId}`,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: ruleEvents.id });
    queued += inserted.length;
  }
  return queued;
}
