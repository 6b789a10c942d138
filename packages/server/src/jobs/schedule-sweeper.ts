import type { ConnectionProvider } from "@zapdesk/core";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client.js";
import { contacts, scheduledMessages, whatsapps } from "../db/schema.js";
import type { Clock } from "../lib/clock.js";
import { createJobLoop } from "../lib/job-loop.js";
import { isOptedOut } from "../modules/consent/consent.repo.js";
import { windowOpen } from "../modules/messages/messages.service.js";
import type { OutboundQueue, Outgoing } from "../modules/messages/outbound-queue.js";
import * as ticketsRepo from "../modules/tickets/tickets.repo.js";

/** Schedules handed over per tick at most (the next tick takes the rest). */
const BATCH = 50;

/** Why a due schedule could not be handed to the outbox (kept as its `error`). */
export const SCHEDULE_FAILURES = {
  NO_CONNECTION: "No WhatsApp connection to send it from",
  WINDOW_CLOSED: "The customer's 24-hour window is closed: only a template may be sent",
  TICKET: "No ticket could be opened for the contact",
  /** Issue 22 §3. */
  OPTED_OUT: "The customer opted out of automatic messages (an opt-out word) and has not written since",
} as const;

class HandoverFailure extends Error {}

export interface HandedOver {
  scheduleId: number;
  ticketId: number | null;
  messageId: number | null;
  /** The ticket was opened for this message (none was active). */
  ticketCreated: boolean;
}

export interface ScheduleSweeperDeps {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  pollMs?: number;
  /** Queues the message; after commit wakes the outbox and announces it. */
  outbound: OutboundQueue;
  /** After commit: publish the schedule. */
  onHandled?(result: HandedOver): void;
}

/**
 * Turns due scheduled messages into outbound messages. Each due row is claimed with FOR UPDATE SKIP
 * LOCKED and, in the same transaction, becomes a message and its outbox row and is marked `sent` with
 * the message's id: a row is handed over once, whatever the number of processes; a crash before the
 * commit leaves it `scheduled` for the next tick (of any process). Sending is then the outbox's job.
 */
export function createScheduleSweeper(deps: ScheduleSweeperDeps) {
  const { db, clock, logger } = deps;
  const pollMs = deps.pollMs ?? 1000;

  /** The active ticket of the contact on the connection, or a new open one assigned to the author. */
  async function ticketFor(tx: Db, row: typeof scheduledMessages.$inferSelect, whatsappId: number) {
    const active = await ticketsRepo.findActiveTicket(tx, row.contactId, whatsappId);
    if (active) return { ticket: active, created: false };
    const [contact] = await tx.select({ isGroup: contacts.isGroup }).from(contacts).where(eq(contacts.id, row.contactId));
    if (!contact) throw new HandoverFailure(SCHEDULE_FAILURES.TICKET);
    const created = await ticketsRepo.insertTicketIfNoneActive(tx, {
      contactId: row.contactId,
      whatsappId,
      status: row.userId === null ? "pending" : "open",
      isGroup: contact.isGroup,
      userId: row.userId,
      lastInboundAt: await ticketsRepo.lastInboundAt(tx, row.contactId, whatsappId),
    });
    if (!created) throw new HandoverFailure(SCHEDULE_FAILURES.TICKET);
    return { ticket: created, created: true };
  }

  /** Claim one due schedule and hand it over; undefined when none is due (or all are taken). */
  async function handOne(): Promise<HandedOver | undefined> {
    const outgoing = deps.outbound.begin();
    const handed = await handOver(outgoing);
    await outgoing.afterCommit().catch((error) => logger.debug({ err: error }, "could not publish a scheduled message"));
    return handed;
  }

  async function handOver(outgoing: Outgoing): Promise<HandedOver | undefined> {
    const now = clock.now();
    return db.transaction(async (tx) => {
      const result = (await tx.execute(sql`
        select id from ${scheduledMessages}
        where status = 'scheduled' and send_at <= ${now.toISOString()}::timestamptz
        order by send_at, id limit 1
        for update skip locked`)) as unknown as { rows: { id: number }[] };
      const id = result.rows[0] ? Number(result.rows[0].id) : undefined;
      if (id === undefined) return undefined;
      const [row] = await tx.select().from(scheduledMessages).where(eq(scheduledMessages.id, id));
      try {
        if (await isOptedOut(tx, row.contactId)) throw new HandoverFailure(SCHEDULE_FAILURES.OPTED_OUT);
        const current = row.ticketId === null ? undefined : await ticketsRepo.findTicket(tx, row.ticketId, { lock: true });
        const whatsappId = row.whatsappId ?? current?.whatsappId ?? (await defaultConnection(tx));
        if (whatsappId === null || whatsappId === undefined) throw new HandoverFailure(SCHEDULE_FAILURES.NO_CONNECTION);
        const [connection] = await tx
          .select({ provider: whatsapps.provider })
          .from(whatsapps)
          .where(eq(whatsapps.id, whatsappId));
        if (!connection) throw new HandoverFailure(SCHEDULE_FAILURES.NO_CONNECTION);
        // The ticket it was scheduled in, while still active on that connection; else the contact's
        // active ticket, or a new one (as "new ticket" from the contact does).
        const target =
          current && current.status !== "closed" && current.whatsappId === whatsappId
            ? { ticket: current, created: false }
            : await ticketFor(tx, row, whatsappId);
        if (!windowOpen(connection.provider as ConnectionProvider, target.ticket.lastInboundAt, now.getTime())) {
          throw new HandoverFailure(SCHEDULE_FAILURES.WINDOW_CLOSED);
        }
        const [message] = await outgoing.enqueue(tx, {
          ticket: target.ticket,
          body: row.body,
          userId: row.userId,
          // Its author is not at the keyboard now: held while the number may not open chats.
          automatic: true,
          media:
            row.mediaPath && row.mediaName && row.mediaMime && row.mediaType
              ? { path: row.mediaPath, name: row.mediaName, mime: row.mediaMime, mediaType: row.mediaType }
              : undefined,
        });
        await tx
          .update(scheduledMessages)
          .set({
            status: "sent",
            messageId: message.id,
            ticketId: target.ticket.id,
            whatsappId,
            sentAt: now,
            updatedAt: new Date(),
          })
          .where(eq(scheduledMessages.id, id));
        return { scheduleId: id, ticketId: target.ticket.id, messageId: message.id, ticketCreated: target.created };
      } catch (error) {
        if (!(error instanceof HandoverFailure)) throw error;
        await tx
          .update(scheduledMessages)
          .set({ status: "failed", error: error.message, updatedAt: new Date() })
          .where(eq(scheduledMessages.id, id));
        return { scheduleId: id, ticketId: row.ticketId, messageId: null, ticketCreated: false };
      }
    });
  }

  async function defaultConnection(tx: Db): Promise<number | undefined> {
    const [row] = await tx.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.isDefault, true));
    return row?.id;
  }

  /** Hand over every due schedule; returns how many were handled. */
  async function sweepNow(): Promise<number> {
    let handled = 0;
    while (handled < BATCH) {
      const result = await handOne();
      if (!result) break;
      handled++;
      deps.onHandled?.(result);
    }
    return handled;
  }

  const loop = createJobLoop(sweepNow, { pollMs, logger, failed: "schedule sweep failed" });

  return { sweep: loop.run, start: loop.start, stop: loop.stop };
}

export type ScheduleSweeper = ReturnType<typeof createScheduleSweeper>;
