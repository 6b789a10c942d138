import { IDLE_TRIGGERS, type RuleEventSummary, type RuleOutcome } from "@zapdesk/core";
import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { ruleEvents, ruleRuns } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { createJobLoop } from "../../lib/job-loop.js";
import type { ActionRunner } from "../automation/actions.js";
import { findTicket } from "../tickets/tickets.repo.js";
import { findAuthUser } from "../users/users.repo.js";
import { firstFailing, loadFacts } from "./conditions.js";
import { sweepIdleTickets } from "./idle-sweep.js";
import { type ClaimedEvent, claimEvents, firedLastHour, markHandled, type QueuedEvent, skipCounter } from "./rule-batch.js";
import type { QuietSkips } from "./rule-quiet.js";
import { enabledRules, type RuleRow } from "./rules.repo.js";

/**
 * A tick goes on while claims come back full, for this long at most, then lets the next tick take
 * the rest (it was 500 events a tick, once a second: a process could not keep up with more than 500
 * messages a second).
 */
const TICK_MS = 1000;
const MIN_CLAIMS = 5;
/** Events claimed (and handled in one transaction) at once. */
const CLAIM = 200;
/** An event whose handling failed this many times (not a refusal: a fault) is logged as refused and left. */
const MAX_FAULTS = 3;
/** Handled events are kept this long (a no-reply period's event keeps it from firing twice). */
const KEEP_HANDLED_MS = 8 * 86_400_000;

export interface RuleWorkerDeps {
  db: Db;
  runner: ActionRunner;
  logger: FastifyBaseLogger;
  pollMs?: number;
  /** How often the no-reply triggers are swept (default a minute). */
  idleSweepMs?: number;
  /** After commit: the rule fired (tests, realtime of the log). */
  onFired?(ruleId: number, outcome: RuleOutcome): void;
  /** The inbound path's counts of messages no rule could fire on (not queued): added at each tick. */
  quietSkips?: QuietSkips;
}

export function summarise(event: QueuedEvent, text: string | null): RuleEventSummary {
  return {
    kind: event.kind as RuleEventSummary["kind"],
    ticketId: event.ticketId,
    messageId: event.messageId,
    text: text === null ? null : text.slice(0, 200),
    tagId: event.tagId,
    previous: event.previous ?? (event.idleMinutes ? { idleMinutes: event.idleMinutes } : null),
    depth: event.depth,
    at: event.createdAt.toISOString(),
  };
}

/**
 * Issue 23 §1: the rules' worker. Claims the oldest queued events (a batch) FOR UPDATE SKIP LOCKED
 * and, in that transaction, for each in turn, evaluates each enabled rule of its kind, runs the actions of those whose
 * conditions hold (through the action runner, a savepoint each: a refusal undoes that rule's
 * actions alone), writes the log row of each (unique per rule and event) and marks the event
 * handled. A crash before the commit leaves the event for the next tick of any process; after it,
 * nothing runs again. Realtime events, messages and webhook calls leave after the commit.
 */
export function createRuleWorker(deps: RuleWorkerDeps) {
  const { db, logger } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const idleSweepMs = deps.idleSweepMs ?? 60_000;
  const faults = new Map<number, number>();
  let lastIdleSweep = 0;

  /**
   * The enabled rules of the event's kind on it: every rule's conditions first, in memory, on the
   * ticket as the event left it (one set of facts for all); a rule whose conditions fail did not
   * fire and is counted (`skips`, one statement per batch), not logged row by row. Then in id order
   * the actions of those that hold, each logged (unique per rule and event). The outcomes newly logged.
   */
  async function fireAll(
    tx: Db,
    claimed: ClaimedEvent,
    rules: RuleRow[],
    batch: { after: (() => Promise<void>)[]; skips: ReturnType<typeof skipCounter>; changed: Set<number> },
  ) {
    const { event, message } = claimed;
    const outcomes: [number, RuleOutcome][] = [];
    // An earlier event of the batch fired actions on this ticket: read it as they left it.
    const ticket = batch.changed.has(event.ticketId) ? ((await findTicket(tx, event.ticketId)) ?? null) : claimed.ticket;
    if (!ticket) return outcomes;
    const facts = loadFacts(tx, { at: event.createdAt, ticket, message });
    const holding: RuleRow[] = [];
    for (const rule of rules) {
      const first = firstFailing(rule.conditions, facts);
      const failed = typeof first === "number" ? first : await first;
      if (failed >= 0) batch.skips.add(rule.id, failed, event.createdAt);
      else holding.push(rule);
    }
    if (!holding.length) return outcomes;
    const summary = summarise(event, message?.body ?? null);
    const firedBefore = await firedLastHour(
      tx,
      ticket.id,
      holding.map((rule) => rule.id),
    );
    let deeper = false;
    for (const rule of holding) {
      const log = async (values: Partial<typeof ruleRuns.$inferInsert> & { outcome: RuleOutcome }) => {
        const rows = await tx
          .insert(ruleRuns)
          .values({ ruleId: rule.id, eventId: event.id, ticketId: ticket.id, event: summary, ...values })
          .onConflictDoNothing()
          .returning({ id: ruleRuns.id });
        if (rows.length) outcomes.push([rule.id, values.outcome]);
      };
      const fired = firedBefore.get(rule.id) ?? 0;
      if (fired >= rule.maxPerHour) {
        await log({ outcome: "rateLimited", errorMessage: `Fired ${fired} times on this ticket in the last hour` });
        continue;
      }
      const actor = rule.runAsId === null ? undefined : await findAuthUser(tx, rule.runAsId);
      if (!actor) {
        await log({ outcome: "refused", errorCode: "ERR_NO_USER_FOUND", errorMessage: "The rule's author is gone" });
        continue;
      }
      if (!deeper) {
        // What the actions change is an event one level deeper (the triggers read it; 0035).
        await tx.execute(sql`select set_config('zapdesk.rule_depth', ${String(event.depth + 1)}, true)`);
        deeper = true;
      }
      // The log row first: unique per rule and event, it is the claim (another process's copy of
      // this firing waits on it, then finds it taken and applies nothing).
      const [claim] = await tx
        .insert(ruleRuns)
        .values({ ruleId: rule.id, eventId: event.id, ticketId: ticket.id, event: summary, outcome: "done" })
        .onConflictDoNothing()
        .returning({ id: ruleRuns.id });
      if (!claim) continue;
      batch.changed.add(ticket.id);
      const settle = async (values: Partial<typeof ruleRuns.$inferInsert> & { outcome: RuleOutcome }) => {
        await tx.update(ruleRuns).set(values).where(eq(ruleRuns.id, claim.id));
        outcomes.push([rule.id, values.outcome]);
      };
      try {
        const run = await deps.runner.runIn(tx, actor, ticket.id, rule.actions, {
          source: { kind: "rule", id: rule.id, name: rule.name, userId: actor.id },
        });
        batch.after.push(run.after);
        await settle({ outcome: "done", results: run.results });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        await settle({ outcome: "refused", errorCode: error.code, errorMessage: error.details?.[0]?.message ?? error.message });
      }
    }
    return outcomes;
  }

  /** After a fault, events are claimed one at a time until one goes through (the faulty one is found). */
  let single = false;

  /**
   * Claim the oldest queued events (up to CLAIM at once: one transaction, one claim, one update for
   * a batch) and handle them in order; how many, 0 when none is waiting (or all are taken).
   */
  async function handleBatch(): Promise<number> {
    const after: (() => Promise<void>)[] = [];
    const fired: [number, RuleOutcome][] = [];
    let claimed: number[] = [];
    try {
      const handled = await db.transaction(async (tx) => {
        const batch = await claimEvents(tx, single ? 1 : CLAIM);
        claimed = batch.map((c) => c.event.id);
        if (!batch.length) return 0;
        // All enabled rules, once per batch (a tiny table; read in the transaction, so never stale).
        const enabled = await enabledRules(tx);
        const state = { after, skips: skipCounter(), changed: new Set<number>() };
        for (const item of batch) {
          const { event } = item;
          const idle = (IDLE_TRIGGERS as readonly string[]).includes(event.kind);
          const rules = enabled.filter(
            (rule) =>
              rule.trigger === event.kind &&
              (!idle || rule.idleMinutes === event.idleMinutes) &&
              // An event queued before the rule was enabled is not its own.
              rule.enabledAt <= event.createdAt,
          );
          if (rules.length) fired.push(...(await fireAll(tx, item, rules, state)));
        }
        await state.skips.flush(tx);
        await markHandled(tx, claimed);
        return batch.length;
      });
      if (single && handled) single = false;
      for (const id of claimed) faults.delete(id);
      for (const publish of after) await publish().catch((error) => logger.error({ err: error }, "rule effects failed"));
      for (const [ruleId, outcome] of fired) deps.onFired?.(ruleId, outcome);
      return handled;
    } catch (error) {
      if (!claimed.length) throw error;
      logger.error({ err: error, eventIds: claimed }, "automation rule event failed");
      if (claimed.length > 1) {
        single = true;
        return 1;
      }
      const [id] = claimed;
      const count = (faults.get(id) ?? 0) + 1;
      faults.set(id, count);
      if (count >= MAX_FAULTS) await giveUp(id, error);
      return 1;
    }
  }

  /** A fault that repeats: each rule's log says so, and the event is left behind (never retried). */
  async function giveUp(eventId: number, error: unknown) {
    faults.delete(eventId);
    await db.transaction(async (tx) => {
      const [event] = await tx.select().from(ruleEvents).where(eq(ruleEvents.id, eventId)).for("update", { skipLocked: true });
      if (!event || event.handledAt) return;
      for (const rule of (await enabledRules(tx)).filter((r) => r.trigger === event.kind)) {
        await tx
          .insert(ruleRuns)
          .values({
            ruleId: rule.id,
            eventId,
            ticketId: event.ticketId,
            event: summarise(event, null),
            outcome: "refused",
            errorCode: "ERR_INTERNAL",
            errorMessage: error instanceof Error ? error.message.slice(0, 500) : "Failed",
          })
          .onConflictDoNothing();
      }
      await tx.update(ruleEvents).set({ handledAt: new Date() }).where(eq(ruleEvents.id, eventId));
    });
  }

  /** Handle what is queued (and, when due, sweep the no-reply triggers); returns how many events. */
  async function drainNow(): Promise<number> {
    await deps.quietSkips?.flush();
    if (Date.now() - lastIdleSweep >= idleSweepMs) {
      lastIdleSweep = Date.now();
      await sweepIdle();
    }
    let handled = 0;
    const until = Date.now() + TICK_MS;
    // At least MIN_CLAIMS full claims, then more while the tick lasts: a slow machine still makes
    // progress through a burst, and a fast one goes on through a backlog.
    for (let claims = 0; claims < MIN_CLAIMS || Date.now() < until; claims++) {
      const claim = single ? 1 : CLAIM;
      const count = await handleBatch();
      handled += count;
      // A claim that was not full emptied the queue: the trickle that follows waits for the next
      // tick, where it makes a batch (claims of a few events each cost their statements per event).
      if (count < claim) break;
    }
    return handled;
  }

  async function sweepIdle(): Promise<number> {
    await db
      .delete(ruleEvents)
      .where(and(isNotNull(ruleEvents.handledAt), lt(ruleEvents.handledAt, new Date(Date.now() - KEEP_HANDLED_MS))));
    return sweepIdleTickets(db, new Date());
  }

  const loop = createJobLoop(drainNow, { pollMs, logger, failed: "automation rules failed" });

  return {
    drain: loop.run,
    /** Queue the no-reply events that are due now (the worker does it every `idleSweepMs`). */
    sweepIdle,
    notify: loop.notify,
    start: loop.start,
    stop: loop.stop,
  };
}

export type RuleWorker = ReturnType<typeof createRuleWorker>;
