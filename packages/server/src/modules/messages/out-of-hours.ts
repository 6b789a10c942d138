import { type BusinessSchedule, isOpenAt, localDateOf } from "@zapdesk/core";
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queues, tickets } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { TicketRow } from "../tickets/tickets.repo.js";
import { enqueueOutbound } from "./outbound.js";
import { personalise } from "./queue-menu.js";

/** A ticket a customer just wrote to, with the name the message may address them by. */
export interface OutOfHoursCandidate {
  ticket: TicketRow;
  name: string;
}

/**
 * Business hours (issue 11 item 3), in the caller's transaction after a customer's message has
 * settled its ticket's queue: when that queue is closed now and has an out-of-hours message, the
 * message is queued on the durable outbox as a bot message, at most once per ticket per day (the
 * queue's local date). The day is claimed with a conditional update of the ticket, so a retry,
 * a restart or a second process writing at the same moment never sends it twice. Only a ticket
 * waiting for an agent (no assignee) gets it; a one-to-one chat only. Returns the bot messages'
 * ids by ticket id.
 */
export async function sendOutOfHours(
  tx: Db,
  clock: Clock,
  candidates: OutOfHoursCandidate[],
  /** Issue 24: the queues' schedules when the caller read them already (the batch's ticket update); read here otherwise. */
  known?: Map<number, BusinessSchedule | null>,
): Promise<Map<number, number>> {
  const sent = new Map<number, number>();
  const waiting = candidates.filter(
    ({ ticket }) => ticket.queueId !== null && ticket.userId === null && ticket.whatsappId !== null && !ticket.isGroup,
  );
  if (waiting.length === 0) return sent;
  const queueIds = [...new Set(waiting.map(({ ticket }) => ticket.queueId as number))];
  const rows = known
    ? [...known].flatMap(([id, schedule]) => (schedule ? [{ id, schedule }] : []))
    : await tx
        .select({ id: queues.id, schedule: queues.schedule })
        .from(queues)
        .where(and(inArray(queues.id, queueIds), isNotNull(queues.schedule)));
  if (rows.length === 0) return sent;
  const schedules = new Map(rows.map((r) => [r.id, r.schedule as BusinessSchedule]));
  const now = clock.now();
  for (const { ticket, name } of waiting) {
    const schedule = schedules.get(ticket.queueId as number);
    if (!schedule?.outOfHoursMessage.trim() || isOpenAt(schedule, now)) continue;
    const today = localDateOf(now, schedule.timezone);
    const [claimed] = await tx
      .update(tickets)
      .set({ outOfHoursSentOn: today })
      .where(
        and(
          eq(tickets.id, ticket.id),
          or(sql`${tickets.outOfHoursSentOn} is null`, sql`${tickets.outOfHoursSentOn} <> ${today}::date`),
        ),
      )
      .returning();
    if (!claimed) continue;
    const message = await enqueueOutbound(tx, {
      ticket: claimed,
      body: personalise(schedule.outOfHoursMessage, name),
      automation: "system",
      at: now,
    });
    sent.set(ticket.id, message.id);
  }
  return sent;
}
