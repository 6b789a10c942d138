import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { createdAt, tz, updatedAt } from "./schema-columns.js";

/** Outbound webhooks (issue 11 item 6): where events are POSTed, signed with a per-webhook secret. */
export const webhooks = pgTable("webhooks", {
  id: serial("id").primaryKey(),
  url: text("url").notNull(),
  /** WEBHOOK_EVENTS it subscribes to; the database triggers read this to enqueue deliveries. */
  events: text("events").array().notNull(),
  enabled: boolean("enabled").notNull().default(true),
  /** The signing secret, sealed with the SecretBox (never sent back after creation). */
  secret: text("secret").notNull(),
  secretHint: text("secret_hint").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * One row per webhook per event, written by the triggers of migration 0012 in the same transaction
 * as the change (nothing missed, nothing sent for a rolled-back change), then POSTed by the
 * delivery worker. The body is built and frozen at the first attempt, so retries send the same bytes.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    webhookId: integer("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    /** The message, ticket or contact the event is about. */
    entityId: bigint("entity_id", { mode: "number" }).notNull(),
    /** ticket.updated / ticket.closed: the status, userId and queueId before the change. */
    previous: jsonb("previous"),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    body: text("body"),
    /** Null: due now. */
    nextAttemptAt: tz("next_attempt_at"),
    /** The retry window (a day) runs from here. */
    firstAttemptAt: tz("first_attempt_at"),
    lastAttemptAt: tz("last_attempt_at"),
    lockedUntil: tz("locked_until"),
    responseStatus: integer("response_status"),
    latencyMs: integer("latency_ms"),
    responseSnippet: text("response_snippet"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.id.desc()),
    index("webhook_deliveries_due_idx").on(t.id).where(sql`${t.status} = 'pending'`),
  ],
);
