import type { LegalHold, LegalHoldInput, RetentionCounts, RetentionOverview, RetentionPolicy } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.js";
import { contacts, legalHolds, queues, tickets } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { MediaStorage } from "../../media/storage.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { findContactById } from "../contacts/contacts.repo.js";
import { presentContact } from "../contacts/contacts.service.js";
import {
  deletePolicy,
  findPolicy,
  forgetMediaDeletions,
  lastRun,
  listHolds,
  listPolicies,
  lockMediaDeletions,
  previewPolicy,
  type SweepBatch,
  sweepBatch,
  takeRunCounts,
  upsertPolicy,
} from "./retention.repo.js";

export interface RetentionServiceDeps {
  database: Database;
  storage: MediaStorage;
  logger: FastifyBaseLogger;
  /** Open screens hear of a batch's effects after its commit (one event per ticket, one per contact). */
  events?: Publisher;
  /** How long one run may sweep before it leaves the rest to the next one (default 5 minutes). */
  runBudgetMs?: number;
}

/** Who the trail names for a sweep the timer started (a person running it is named instead). */
const SWEEPER = { userId: null, name: "Retention" };
const FILES_PER_PASS = 100;

/**
 * Issue 22 §1: retention policies, legal holds and the sweep. The sweep runs in bounded batches,
 * each one transaction that removes rows and queues their files; the files go after the commit
 * (media_deletions), and each run leaves one entry with its counts in the audit trail.
 */
export function createRetentionService(deps: RetentionServiceDeps) {
  const { database, storage, logger } = deps;
  const db = database.db;
  const budget = deps.runBudgetMs ?? 5 * 60_000;
  let running = false;
  /** Set by stop(): a run in progress ends after its current batch. */
  let stopping = false;

  async function queueExists(queueId: number | null) {
    if (queueId === null) return;
    const [row] = await db.select({ id: queues.id }).from(queues).where(eq(queues.id, queueId));
    if (!row) throw new AppError("ERR_NO_QUEUE_FOUND");
  }

  /** Remove the queued files; a file the storage cannot remove now stays queued for the next pass. */
  async function removeQueuedFiles(): Promise<void> {
    for (;;) {
      const done = await db.transaction(async (tx) => {
        const batch = await lockMediaDeletions(tx, FILES_PER_PASS);
        const removed: string[] = [];
        for (const item of batch) {
          try {
            await storage.remove(item.path);
            removed.push(item.id);
          } catch (error) {
            logger.warn({ err: error, path: item.path }, "retention: a file could not be removed; it stays queued");
          }
        }
        await forgetMediaDeletions(tx, removed);
        return batch.length < FILES_PER_PASS || removed.length < batch.length;
      });
      if (done) return;
    }
  }

  /**
   * After a batch's commit: an open conversation refetches (one `messagesRemoved` per ticket, not
   * one event per message), the lists drop the preview, and an anonymised contact's copies follow.
   */
  async function announce(batch: SweepBatch): Promise<void> {
    const events = deps.events;
    if (!events) return;
    for (const t of batch.tickets) {
      const removed = t.remove === "media" ? "media" : "messages";
      events.publishTicket("messagesRemoved", { ticketId: t.ticketId, removed }, { userId: t.userId, queueId: t.queueId });
    }
    for (const id of batch.contactIds) {
      const row = await findContactById(db, id);
      if (row) events.publish("contact", { action: "update", contact: presentContact(row, [], []) });
    }
  }

  /** One run: batches until nothing is due, another process sweeps, or the time budget is spent. */
  async function run(who?: { userId: number; name: string; email: string }): Promise<RetentionCounts> {
    if (running) throw new AppError("ERR_RETENTION_RUNNING");
    running = true;
    try {
      const started = Date.now();
      for (let first = true; ; first = false) {
        const batch = await db.transaction((tx) => sweepBatch(tx));
        // Another process is sweeping: its run writes the trail's entry, with its own counts.
        if (batch.busy && first) return { tickets: 0, messages: 0, files: 0, contacts: 0 };
        await announce(batch).catch((error) => logger.warn({ err: error }, "retention: could not announce a batch"));
        await removeQueuedFiles();
        const empty = batch.counts.tickets === 0 && batch.counts.contacts === 0;
        if (batch.busy || empty || stopping || Date.now() - started > budget) break;
      }
      return await db.transaction(async (tx) => {
        const counts = await takeRunCounts(tx);
        if (counts.tickets > 0 || counts.contacts > 0)
          await recordAudit(tx, {
            action: "retention.run",
            targetType: "retention",
            details: { ...counts },
            who: who ?? SWEEPER,
          });
        return counts;
      });
    } finally {
      running = false;
    }
  }

  let first: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  return {
    async overview(): Promise<RetentionOverview> {
      return { policies: await listPolicies(db), lastRun: await lastRun(db) };
    },
    async savePolicy(policy: RetentionPolicy): Promise<RetentionPolicy> {
      await queueExists(policy.queueId);
      const before = await findPolicy(db, policy.queueId);
      await db.transaction(async (tx) => {
        await upsertPolicy(tx, policy);
        await recordAudit(tx, {
          action: "retention.policyChanged",
          targetType: policy.queueId === null ? "retentionDefault" : "queue",
          targetId: policy.queueId ?? undefined,
          details: { from: before ?? null, to: policy },
        });
      });
      return policy;
    },
    /** A queue goes back to the default policy. */
    async resetPolicy(queueId: number): Promise<void> {
      await queueExists(queueId);
      await db.transaction(async (tx) => {
        const before = await findPolicy(tx, queueId);
        if (!(await deletePolicy(tx, queueId))) return;
        await recordAudit(tx, {
          action: "retention.policyChanged",
          targetType: "queue",
          targetId: queueId,
          details: { from: before ?? null, to: null },
        });
      });
    },
    preview: (policy: RetentionPolicy) => previewPolicy(database.heavy, policy),
    run,
    async holds(filter: { contactId?: number; ticketId?: number }): Promise<LegalHold[]> {
      return (await listHolds(db, filter)).map(presentHold);
    },
    async placeHold(input: LegalHoldInput & { reason: string }, by: { id: number; name: string }): Promise<LegalHold> {
      if (input.contactId !== undefined) {
        const [found] = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, input.contactId));
        if (!found) throw new AppError("ERR_NO_CONTACT_FOUND");
      }
      if (input.ticketId !== undefined) {
        const [found] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, input.ticketId));
        if (!found) throw new AppError("ERR_NO_TICKET_FOUND");
      }
      try {
        return await db.transaction(async (tx) => {
          const [hold] = await tx
            .insert(legalHolds)
            .values({
              contactId: input.contactId ?? null,
              ticketId: input.ticketId ?? null,
              reason: input.reason,
              createdBy: by.id,
              createdByName: by.name,
            })
            .returning();
          await recordAudit(tx, {
            action: "legalHold.placed",
            targetType: input.contactId !== undefined ? "contact" : "ticket",
            targetId: input.contactId ?? input.ticketId,
            details: { reason: input.reason },
          });
          return presentHold(hold!);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError("ERR_ALREADY_EXISTS");
        throw error;
      }
    },
    async releaseHold(id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const [hold] = await tx.delete(legalHolds).where(eq(legalHolds.id, id)).returning();
        if (!hold) throw new AppError("ERR_NO_LEGAL_HOLD_FOUND");
        await recordAudit(tx, {
          action: "legalHold.released",
          targetType: hold.contactId !== null ? "contact" : "ticket",
          targetId: hold.contactId ?? hold.ticketId ?? undefined,
          details: { reason: hold.reason, placedBy: hold.createdByName, placedAt: hold.createdAt.toISOString() },
        });
      });
    },
    /** Sweeps every `everyMs` (default hourly), the first time a minute after the start. */
    start(everyMs = 60 * 60_000) {
      const tick = () => {
        current = run().catch((error) => {
          if (!(error instanceof AppError)) logger.warn({ err: error }, "retention sweep failed");
        });
      };
      first = setTimeout(tick, Math.min(60_000, everyMs));
      first.unref();
      timer = setInterval(tick, everyMs);
      timer.unref();
    },
    /** No new sweep; the one running ends its batch (a run stops between batches only). */
    async stop() {
      stopping = true;
      clearTimeout(first);
      clearInterval(timer);
      await current;
    },
  };
}

function presentHold(hold: typeof legalHolds.$inferSelect): LegalHold {
  return {
    id: hold.id,
    contactId: hold.contactId,
    ticketId: hold.ticketId,
    reason: hold.reason,
    createdBy: hold.createdByName,
    createdAt: hold.createdAt.toISOString(),
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
