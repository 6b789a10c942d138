import type { RetentionRemove } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import { bigserial, boolean, check, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { contacts, queues, tickets, users } from "./schema.js";
import { createdAt, updatedAt } from "./schema-columns.js";

/**
 * Issue 22 §1 (migration 0029): retention policies, the default one with a null queue. A queue's
 * own row replaces the default for its tickets; a disabled row keeps them forever.
 */
export const retentionPolicies = pgTable(
  "retention_policies",
  {
    id: serial("id").primaryKey(),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(false),
    days: integer("days").notNull(),
    remove: text("remove").$type<RetentionRemove>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("retention_policies_queue_key").on(sql`coalesce(${t.queueId}, 0)`),
    check("retention_policies_days_check", sql`${t.days} BETWEEN 1 AND 3650`),
    check("retention_policies_remove_check", sql`${t.remove} IN ('media', 'messages', 'anonymise')`),
  ],
);

/** A legal hold suspends every policy for a contact (all its tickets) or for one ticket. */
export const legalHolds = pgTable(
  "legal_holds",
  {
    id: serial("id").primaryKey(),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "cascade" }),
    reason: text("reason").notNull().default(""),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("legal_holds_contact_key").on(t.contactId).where(sql`${t.contactId} IS NOT NULL`),
    uniqueIndex("legal_holds_ticket_key").on(t.ticketId).where(sql`${t.ticketId} IS NOT NULL`),
    check("legal_holds_one_target", sql`(${t.contactId} IS NULL) <> (${t.ticketId} IS NULL)`),
  ],
);

/** Files whose rows are gone, removed from the storage after the commit that queued them. */
export const mediaDeletions = pgTable("media_deletions", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  path: text("path").notNull(),
  createdAt: createdAt(),
});

/** The running sweep's counts (one row, while counts wait for the audit trail), kept with its batches. */
export const retentionState = pgTable(
  "retention_state",
  {
    id: integer("id").primaryKey().default(1),
    tickets: integer("tickets").notNull().default(0),
    messages: integer("messages").notNull().default(0),
    files: integer("files").notNull().default(0),
    /** Issue 22 §1 (migration 0034): contacts anonymised. */
    contacts: integer("contacts").notNull().default(0),
  },
  () => [check("retention_state_one_row", sql`id = 1`)],
);
