import { type RuleCondition, ruleConditionSchema } from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { foldText, messageTextHolds } from "./conditions.js";
import { skipCounter } from "./rule-batch.js";

/**
 * Issue 23 §1 (cost of rules): a customer's message that no enabled rule can fire on is not queued
 * for the rules' worker at all. Most rules on "a message arrives" look for words ("boleto",
 * "cancelar"); most messages hold none of them, and queueing each one for the worker to find that
 * out was most of what 20 rules cost a message.
 *
 * Only the message-text conditions are decided here: they read the message alone, which is the same
 * when the worker would read it. Every other condition (queue, status, tags, …) reads the ticket as
 * it is when the worker claims the event, so a rule without a text condition queues every message as
 * before. The messages' trigger (migration 0044) trusts the inbound batch only for the rules it read:
 * their stamp (each rule's id and row version) must be the one the trigger reads in that statement.
 */

/** The enabled "a message arrives" rules, as the inbound path reads them (with its settings, a second's cache). */
export interface ReceivedRules {
  /** "id.version" of each rule in id order, as migration 0044's trigger builds it ("" when there is none). */
  stamp: string;
  rules: { id: number; conditions: RuleCondition[] }[];
}

/** A rule as the inbound settings' statement returns it: JSON of its id, row version and conditions. */
export function receivedRulesOf(rows: string[]): ReceivedRules {
  const rules = rows
    .map((row) => JSON.parse(row) as { id: number; version: string; conditions: unknown })
    .sort((a, b) => a.id - b.id);
  return {
    stamp: rules.map((r) => `${r.id}.${r.version}`).join(","),
    rules: rules.map((r) => ({
      id: r.id,
      // Stored through the same schema; a row it cannot read (written by hand) decides nothing here.
      conditions: ruleConditionListOf(r.conditions),
    })),
  };
}

function ruleConditionListOf(value: unknown): RuleCondition[] {
  if (!Array.isArray(value)) return [];
  const parsed = value.map((c) => ruleConditionSchema.safeParse(c));
  return parsed.every((p) => p.success) ? parsed.map((p) => p.data as RuleCondition) : [];
}

export interface QuietSkip {
  ruleId: number;
  /** The index of the rule's condition the text failed (the first text condition that did). */
  failedCondition: number;
}

/**
 * When no rule can fire on any of these received texts (each rule has a message-text condition that
 * each text fails): the stamp to hand the trigger and what each rule skipped, one entry per rule and
 * text. Null when some rule may fire on one of them, or when there is no rule (the trigger queues
 * nothing then anyway).
 */
export function quietFor(received: ReceivedRules, texts: string[]): { stamp: string; skips: QuietSkip[] } | null {
  if (received.rules.length === 0 || texts.length === 0) return null;
  const skips: QuietSkip[] = [];
  for (const text of texts) {
    let foldedText: string | undefined;
    const foldedOnce = () => {
      foldedText ??= foldText(text);
      return foldedText;
    };
    for (const rule of received.rules) {
      const failed = rule.conditions.findIndex(
        (condition) => condition.type === "messageText" && !messageTextHolds(condition, text, foldedOnce),
      );
      if (failed < 0) return null;
      skips.push({ ruleId: rule.id, failedCondition: failed });
    }
  }
  return { stamp: received.stamp, skips };
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
