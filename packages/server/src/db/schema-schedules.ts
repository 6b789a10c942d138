import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { contacts, messages, tickets, users, whatsapps } from "./schema.js";
import { createdAt, tz, updatedAt } from "./schema-columns.js";

/**
 * Scheduled messages (issue 11 item 5): a text (and optionally a stored file) to send at `sendAt`.
 * The sweeper turns a due row into an outbound message and its outbox row in one transaction and
 * keeps the message's id: from then on the outbox alone sends it (once, across restarts).
 * `status`: scheduled, sent (handed to the outbox), failed (could not be handed over), cancelled.
 */
export const scheduledMessages = pgTable(
  "scheduled_messages",
  {
    id: serial("id").primaryKey(),
    /** The ticket to write in; null when scheduled from a contact (its ticket is found or opened at send time). */
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull().default(""),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    mediaMime: text("media_mime"),
    mediaType: text("media_type"),
    sendAt: tz("send_at").notNull(),
    status: text("status").notNull().default("scheduled"),
    messageId: bigint("message_id", { mode: "number" }).references(() => messages.id, { onDelete: "set null" }),
    error: text("error"),
    sentAt: tz("sent_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("scheduled_messages_due_idx").on(t.sendAt).where(sql`${t.status} = 'scheduled'`),
    index("scheduled_messages_ticket_idx").on(t.ticketId),
    index("scheduled_messages_message_idx").on(t.messageId),
  ],
);
