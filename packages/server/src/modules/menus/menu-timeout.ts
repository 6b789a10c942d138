import { and, eq, isNull, lte } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { contacts, tickets } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { createJobLoop } from "../../lib/job-loop.js";
import type { TicketScope } from "../../realtime/publisher.js";
import { findConnection } from "../connections/connections.repo.js";
import { scopeOfTicket } from "../inbound/ticket-rules.js";
import { handToQueue } from "./hand-to-queue.js";
import { loadMenuRows } from "./menus.repo.js";

/** Tickets handed over per tick at most (the next tick takes the rest). */
const BATCH = 50;

export interface TimedOut {
  ticketId: number;
  queueId: number | null;
  from: TicketScope;
  to: TicketScope;
  messageIds: number[];
}

export interface MenuTimeoutDeps {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  pollMs?: number;
  /** After commit: wake the outbox, announce the queued messages and the ticket's move. */
  onTimedOut(result: TimedOut): Promise<void> | void;
}

/**
 * Issue 23 §3: a customer who does not answer a menu level within its timeout is handed to the
 * level's timeout queue (else the connection's first queue). Each due ticket is claimed with FOR
 * UPDATE SKIP LOCKED and handed over in the same transaction, its deadline cleared: once, whatever
 * the number of processes; a crash before the commit leaves it due for the next tick (of any process).
 */
export function createMenuTimeoutSweeper(deps: MenuTimeoutDeps) {
  const { db, clock, logger } = deps;
  const pollMs = deps.pollMs ?? 1000;

  async function handOne(): Promise<TimedOut | undefined> {
    const now = clock.now();
    return db.transaction(async (tx) => {
      const [ticket] = await tx
        .select()
        .from(tickets)
        .where(
          and(lte(tickets.menuDeadlineAt, now), eq(tickets.status, "pending"), isNull(tickets.queueId), isNull(tickets.userId)),
        )
        .orderBy(tickets.menuDeadlineAt, tickets.id)
        .limit(1)
        .for("update", { skipLocked: true });
      if (!ticket) return undefined;
      const connection = ticket.whatsappId === null ? undefined : await findConnection(tx, ticket.whatsappId);
      const rows = connection ? await loadMenuRows(tx, connection.id) : undefined;
      const level = ticket.menuNodeId === null ? undefined : rows?.byId.get(ticket.menuNodeId);
      const queueId = level?.timeoutQueueId ?? connection?.queues[0]?.id ?? null;
      const [contact] = await tx.select({ name: contacts.name }).from(contacts).where(eq(contacts.id, ticket.contactId));
      const handed = await handToQueue(tx, { ticket, queueId, name: contact?.name ?? "" });
      return {
        ticketId: ticket.id,
        queueId,
        from: scopeOfTicket(ticket),
        to: scopeOfTicket(handed.ticket),
        messageIds: handed.botIds,
      };
    });
  }

  /** Hand over every due ticket; returns how many were handled. */
  async function sweepNow(): Promise<number> {
    let handled = 0;
    while (handled < BATCH) {
      const result = await handOne();
      if (!result) break;
      handled++;
      await Promise.resolve(deps.onTimedOut(result)).catch((error) =>
        logger.debug({ err: error }, "could not publish a menu timeout"),
      );
    }
    return handled;
  }

  const loop = createJobLoop(sweepNow, { pollMs, logger, failed: "menu timeout sweep failed" });

  return { sweep: loop.run, start: loop.start, stop: loop.stop };
}

export type MenuTimeoutSweeper = ReturnType<typeof createMenuTimeoutSweeper>;
