import { type ActionType, type RuleCondition, ruleConditionSchema } from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { foldText, messageTextHolds, type TicketState, ticketConditionHolds, timeConditionHolds } from "./conditions.js";
import { skipCounter } from "./rule-batch.js";

/**
 * Issue 23 §1 (cost of rules): a customer's message that no enabled rule can fire on is not queued
 * for the rules' worker at all. Most rules on "a message arrives" look for words ("boleto",
 * "cancelar") or hold only for some tickets (a queue, a status); most messages meet neither, and
 * queueing each one for the worker to find that out was most of what 20 rules cost a message.
 *
 * Decided here, on each received message:
 * - its **text conditions**: they read the message alone, which is the same when the worker reads it;
 * - its **ticket conditions** (status, queue, assignee, connection, the connection's kind), on the
 *   ticket as the message's own transaction leaves it: the connection's always (no action changes
 *   it), the others when no enabled rule (of any trigger) has an action that moves a ticket
 *   (`TICKET_MOVING_ACTIONS`). The worker reads the ticket when it claims the event, a moment
 *   later; between the two only a rule's actions could change it in a way that follows from the
 *   message (a rule on "a ticket is created" that assigns it, say), and with no such rule what the
 *   worker would read differs only by what a person or another process did in that moment, a race
 *   either reading could win. With such a rule, those conditions are left to the worker as before;
 * - its **time conditions** (time of day, day of the week), at the time the event would be queued
 *   with: the transaction's, as the database gives it.
 *
 * Every other condition (tags, contact fields, first message) is left to the worker: a rule whose
 * conditions all hold here queues the message. The messages' trigger (migrations 0044, 0045) trusts
 * the inbound batch only for the rules it read: their stamp (each rule's id and row version; every
 * enabled rule's when ticket conditions other than the connection were read) must be the one the
 * trigger reads in that statement.
 */

/**
 * Actions that change a ticket's status, queue or assignee (sending a message may accept a waiting
 * ticket): while an enabled rule has one, ticket conditions are not decided on arrival.
 */
const TICKET_MOVING_ACTIONS: ReadonlySet<string> = new Set<ActionType>([
  "assignAgent",
  "assignQueue",
  "resolve",
  "returnToQueue",
  "sendMessage",
  "sendTemplate",
]);

/**
 * Ticket conditions no action changes (a ticket never changes connection): decided on arrival
 * whatever the other rules do.
 */
const FIXED_CONDITIONS: ReadonlySet<RuleCondition["type"]> = new Set(["connection", "connectionKind"]);

/** The enabled rules, as the inbound path reads them (with its settings, a second's cache). */
export interface ReceivedRules {
  /** "id.version" of each "a message arrives" rule in id order, as migration 0044's trigger builds it ("" when there is none). */
  stamp: string;
  /** "id.version" of every enabled rule in id order, as migration 0045's trigger builds it. */
  everyStamp: string;
  /** The enabled "a message arrives" rules. */
  rules: { id: number; conditions: RuleCondition[] }[];
  /** No enabled rule has an action that moves a ticket: ticket conditions can be decided on arrival. */
  ticketsSettled: boolean;
}

/**
 * The enabled rules as the inbound settings' statement returns them: JSON of each one's id, row
 * version, trigger, conditions (of "a message arrives" rules) and action types.
 */
export function receivedRulesOf(rows: string[]): ReceivedRules {
  const all = rows
    .map((row) => JSON.parse(row) as { id: number; version: string; trigger: string; conditions: unknown; actions: unknown })
    .sort((a, b) => a.id - b.id);
  const received = all.filter((r) => r.trigger === "messageReceived");
  const stampOf = (rules: typeof all) => rules.map((r) => `${r.id}.${r.version}`).join(",");
  return {
    stamp: stampOf(received),
    everyStamp: stampOf(all),
    rules: received.map((r) => ({
      id: r.id,
      // Stored through the same schema; a row it cannot read (written by hand) decides nothing here.
      conditions: ruleConditionListOf(r.conditions),
    })),
    // Action types it cannot read count as moving.
    ticketsSettled: all.every(
      (r) => Array.isArray(r.actions) && r.actions.every((type) => typeof type === "string" && !TICKET_MOVING_ACTIONS.has(type)),
    ),
  };
}

function ruleConditionListOf(value: unknown): RuleCondition[] {
  if (!Array.isArray(value)) return [];
  const parsed = value.map((c) => ruleConditionSchema.safeParse(c));
  return parsed.every((p) => p.success) ? parsed.map((p) => p.data as RuleCondition) : [];
}

/** A received message: its text and its ticket as the message's transaction leaves it (null: not known). */
export interface ReceivedMessage {
  text: string;
  ticket: TicketState | null;
  /**
   * The time its rules' event is queued with: the transaction's (the database's `now()`, which the
   * event's `created_at` defaults to). Undefined: not known, time conditions are left to the worker.
   */
  at?: Date;
}

export interface QuietSkip {
  ruleId: number;
  /**
   * The index of the rule's condition the message failed: the first text condition that did, else
   * the first time condition, else the connection's, else the first other ticket condition.
   */
  failedCondition: number;
}

/**
 * When no rule can fire on any of these received messages (each rule has a condition decided here
 * that each fails: a text condition first, then the time's, the connection's, the rest of the
 * ticket's): the stamp to hand the trigger and what each rule skipped, one entry per rule and
 * message. Null when some rule may fire on one of them, or when there is no rule (the trigger
 * queues nothing then anyway).
 */
export function quietFor(received: ReceivedRules, messages: ReceivedMessage[]): { stamp: string; skips: QuietSkip[] } | null {
  if (received.rules.length === 0 || messages.length === 0) return null;
  const skips: QuietSkip[] = [];
  let readTickets = false;
  for (const { text, ticket, at } of messages) {
    let foldedText: string | undefined;
    const foldedOnce = () => {
      foldedText ??= foldText(text);
      return foldedText;
    };
    for (const rule of received.rules) {
      let failed = rule.conditions.findIndex(
        (condition) => condition.type === "messageText" && !messageTextHolds(condition, text, foldedOnce),
      );
      if (failed < 0 && at) failed = rule.conditions.findIndex((condition) => timeConditionHolds(condition, at) === false);
      if (failed < 0 && ticket) {
        failed = rule.conditions.findIndex(
          (condition) => FIXED_CONDITIONS.has(condition.type) && ticketConditionHolds(condition, ticket) === false,
        );
        if (failed < 0 && received.ticketsSettled) {
          failed = rule.conditions.findIndex((condition) => ticketConditionHolds(condition, ticket) === false);
          if (failed >= 0) readTickets = true;
        }
      }
      if (failed < 0) return null;
      skips.push({ ruleId: rule.id, failedCondition: failed });
    }
  }
  // Text, time and connection need only the "a message arrives" rules unchanged; the rest of the
  // ticket, every rule.
  return { stamp: readTickets ? `every:${received.everyStamp}` : received.stamp, skips };
}

/**
 * What the rules skipped on messages that were not queued, counted in memory and added to the
 * rules' log counts (`rule_skips`, shown as "not met") by the rules' worker at each of its ticks
 * (rule-worker.ts) and when the process stops: a count, not a firing, so a crash loses at most a
 * tick's worth of it and never an action.
 */
export function createQuietSkips(deps: { db: Db; logger: FastifyBaseLogger }) {
  let counter = skipCounter();
  let pending = 0;

  return {
    add(skips: QuietSkip[], at: Date) {
      for (const skip of skips) counter.add(skip.ruleId, skip.failedCondition, at);
      pending += skips.length;
    },
    /** Add what was counted since the last time to the log's counts (nothing to add: no statement). */
    async flush() {
      if (pending === 0) return;
      const full = counter;
      counter = skipCounter();
      pending = 0;
      try {
        // A rule deleted since is left out (its counts went with it).
        await deps.db.transaction((tx) => full.flush(tx, { onlyExistingRules: true }));
      } catch (error) {
        deps.logger.warn({ err: error }, "could not add the rules' skipped messages to their log");
      }
    },
  };
}

export type QuietSkips = ReturnType<typeof createQuietSkips>;
