import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { whatsapps } from "./schema.js";
import { tz, updatedAt } from "./schema-columns.js";

/**
 * Durable inbound log (nothing lost across a crash): every event a channel receives is written here
 * before any other work, processed by the pipeline, then marked done. Unfinished rows are processed
 * first when the connection starts again.
 */
export const inboundEvents = pgTable(
  "inbound_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    /** What the payload is, for the channel that replays it (e.g. "baileys.message", "cloud.webhook"). */
    kind: text("kind").notNull(),
    /** Deduplicates redeliveries of the same event (a message id, a body hash); null: never deduplicated. */
    eventKey: text("event_key"),
    payload: jsonb("payload").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    lockedUntil: tz("locked_until"),
    receivedAt: tz("received_at").notNull().defaultNow(),
    processedAt: tz("processed_at"),
  },
  (t) => [
    uniqueIndex("inbound_events_key").on(t.whatsappId, t.eventKey),
    index("inbound_events_pending_idx").on(t.whatsappId, t.id).where(sql`${t.status} = 'pending'`),
    index("inbound_events_processed_idx").on(t.processedAt).where(sql`${t.status} = 'done'`),
  ],
);

/** WhatsApp LID -> phone-number JID, learned from lid-mapping.update and every *Alt field. */
export const lidMappings = pgTable("lid_mappings", {
  lid: text("lid").primaryKey(),
  pn: text("pn").notNull(),
  updatedAt: updatedAt(),
});

/** Approved message templates of a Cloud API connection, synced from its business account. */
export const whatsappTemplates = pgTable(
  "whatsapp_templates",
  {
    id: serial("id").primaryKey(),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    language: text("language").notNull(),
    category: text("category").notNull().default(""),
    status: text("status").notNull(),
    components: jsonb("components").notNull().default(sql`'[]'::jsonb`),
    syncedAt: tz("synced_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("whatsapp_templates_key").on(t.whatsappId, t.name, t.language)],
);
