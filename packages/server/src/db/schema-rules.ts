import type { Action, ActionResult, RuleCondition, RuleEventSummary } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { tickets, users } from "./schema.js";
import { createdAt, tz, updatedAt } from "./schema-columns.js";

/**
 * Issue 23 §1: automation rules (0035_automation_rules). `conditions` and `actions` hold the core
 * schemas, validated on every write; the actions run as `run_as_id` (the admin who last saved it).
 */
export const automationRules = pgTable(
  "automation_rules",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(false),
    trigger: text("trigger").notNull(),
    idleMinutes: integer("idle_minutes"),
    conditions: jsonb("conditions").$type<RuleCondition[]>().notNull().default(sql`'[]'::jsonb`),
    actions: jsonb("actions").$type<Action[]>().notNull(),
    maxPerHour: integer("max_per_hour").notNull().default(3),
    runAsId: integer("run_as_id").references(() => users.id, { onDelete: "set null" }),
    /** When it was created or last enabled (the database's clock, as the events'): it sees later events only (0042). */
    enabledAt: tz("enabled_at").notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("automation_rules_name_key").on(sql`lower(${t.name})`),
    index("automation_rules_enabled_idx").on(t.trigger).where(sql`${t.enabled}`),
  ],
);

/**
 * The durable queue of events for the rules, filled by triggers in the event's own transaction
 * (0035) and by the no-reply sweep (`dedupe_key`: one event per idle period). A worker handles a
 * row (`handled_at`) in the transaction that records what the rules did.
 */
export const ruleEvents = pgTable(
  "rule_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    messageId: bigint("message_id", { mode: "number" }),
    tagId: integer("tag_id"),
    previous: jsonb("previous").$type<Record<string, unknown>>(),
    idleMinutes: integer("idle_minutes"),
    /** 0: a person's or a channel's change; 1: a rule's actions' (rules fire on it, their changes queue nothing). */
    depth: integer("depth").notNull().default(0),
    dedupeKey: text("dedupe_key"),
    /** Set in the transaction that ran the rules for it; pruned later. */
    handledAt: tz("handled_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("rule_events_dedupe_key").on(t.dedupeKey).where(sql`${t.dedupeKey} IS NOT NULL`),
    index("rule_events_ticket_idx").on(t.ticketId),
    index("rule_events_due_idx").on(t.id).where(sql`${t.handledAt} IS NULL`),
    index("rule_events_handled_idx").on(t.handledAt).where(sql`${t.handledAt} IS NOT NULL`),
  ],
);

/** The execution log: what one rule did with one event (unique: applied once). */
export const ruleRuns = pgTable(
  "rule_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ruleId: integer("rule_id")
      .notNull()
      .references(() => automationRules.id, { onDelete: "cascade" }),
    eventId: bigint("event_id", { mode: "number" }).notNull(),
    // Deleted with its ticket: the log quotes the message that fired the rule (an erasure removes it).
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "cascade" }),
    outcome: text("outcome").notNull(),
    event: jsonb("event").$type<RuleEventSummary>().notNull(),
    failedCondition: integer("failed_condition"),
    results: jsonb("results").$type<ActionResult[]>().notNull().default(sql`'[]'::jsonb`),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("rule_runs_rule_event_key").on(t.ruleId, t.eventId),
    index("rule_runs_rule_idx").on(t.ruleId, t.id.desc()),
    index("rule_runs_rate_idx").on(t.ruleId, t.ticketId, t.createdAt).where(sql`${t.outcome} = 'done'`),
  ],
);

/**
 * Events a rule's conditions did not meet (0042): not firings, so counted per rule, hour and the
 * condition that stopped it (the log shows the counts), in the transaction that handled them.
 */
export const ruleSkips = pgTable(
  "rule_skips",
  {
    ruleId: integer("rule_id")
      .notNull()
      .references(() => automationRules.id, { onDelete: "cascade" }),
    hour: tz("hour").notNull(),
    failedCondition: integer("failed_condition").notNull(),
    count: integer("count").notNull(),
    lastAt: tz("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.hour, t.failedCondition] }), index("rule_skips_hour_idx").on(t.hour)],
);
