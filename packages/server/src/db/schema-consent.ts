import type { ConsentKind } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { contacts, messages, queues, tickets, whatsapps } from "./schema.js";
import { createdAt, updatedAt } from "./schema-columns.js";

/** Issue 22 §3 (migration 0030): the consent message of one connection or one queue. */
export const consentConfigs = pgTable(
  "consent_configs",
  {
    id: serial("id").primaryKey(),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "cascade" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(true),
    message: text("message").notNull(),
    privacyUrl: text("privacy_url").notNull().default(""),
    acceptWords: jsonb("accept_words").$type<string[]>().notNull(),
    declineWords: jsonb("decline_words").$type<string[]>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("consent_configs_whatsapp_key").on(t.whatsappId).where(sql`${t.whatsappId} is not null`),
    uniqueIndex("consent_configs_queue_key").on(t.queueId).where(sql`${t.queueId} is not null`),
    check("consent_configs_one_scope", sql`(${t.whatsappId} IS NULL) <> (${t.queueId} IS NULL)`),
  ],
);

/**
 * What a contact was asked and answered, and their opt-outs and opt-ins, with when and the WhatsApp
 * message. Append-only in the product; erased with the contact (cascade).
 */
export const consentRecords = pgTable(
  "consent_records",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    kind: text("kind").$type<ConsentKind>().notNull(),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    messageId: bigint("message_id", { mode: "number" }).references(() => messages.id, { onDelete: "set null" }),
    messageWid: text("message_wid"),
    text: text("text"),
    createdAt: createdAt(),
  },
  (t) => [
    index("consent_records_contact_idx").on(t.contactId, t.id),
    index("consent_records_message_idx").on(t.messageId).where(sql`${t.messageId} is not null`),
    check("consent_records_kind_check", sql`${t.kind} IN ('asked', 'accepted', 'declined', 'opted_out', 'opted_in')`),
  ],
);
