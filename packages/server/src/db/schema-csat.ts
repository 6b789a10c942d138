import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { contacts, tickets, whatsapps } from "./schema.js";
import { tz } from "./schema-columns.js";

export const RATING_STATUSES = ["pending", "rated", "expired", "cancelled"] as const;
export type RatingStatus = (typeof RATING_STATUSES)[number];

/**
 * A satisfaction question sent after a resolve (issue 11, CSAT), kept durably so an answer is
 * recognised after a restart: pending until the customer answers 1–5 (rated), writes anything
 * else (cancelled) or the window passes (expired). One pending request per contact and connection.
 */
export const ticketRatings = pgTable(
  "ticket_ratings",
  {
    id: serial("id").primaryKey(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    status: text("status").$type<RatingStatus>().notNull().default("pending"),
    /** The question sent (the outbound message). */
    questionMessageId: bigint("question_message_id", { mode: "number" }),
    requestedAt: tz("requested_at").notNull(),
    expiresAt: tz("expires_at").notNull(),
    rating: integer("rating"),
    ratedAt: tz("rated_at"),
    /** The customer's answer (stored on the closed ticket). */
    answerMessageId: bigint("answer_message_id", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("ticket_ratings_one_pending").on(t.contactId, t.whatsappId).where(sql`${t.status} = 'pending'`),
    index("ticket_ratings_pending_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    index("ticket_ratings_ticket_idx").on(t.ticketId),
  ],
);
