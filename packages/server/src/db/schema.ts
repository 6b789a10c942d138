import type { BusinessSchedule, ClosingReasonMode, ConnectionRestriction } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { closingReasons } from "./schema-closing-reasons.js";
import { createdAt, trgm, tz, updatedAt } from "./schema-columns.js";
import { menuNodes } from "./schema-menus.js";
/** A reaction as stored on its message; `by` identifies the participant (their number, or "me"). */
export interface StoredReaction {
  by: string;
  emoji: string;
  fromMe: boolean;
  name: string;
}

/** Written by the database only (a generated column); never selected as a message field. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    profile: text("profile").notNull().default("user"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    index("users_name_trgm").using("gin", trgm(t.name)),
    index("users_email_trgm").using("gin", trgm(t.email)),
  ],
);

/** Issue 22 §5: one sign-in; access tokens carry its id and die with it (logout, "end session"). */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userAgent: text("user_agent").notNull().default(""),
    ip: text("ip").notNull().default(""),
    createdAt: createdAt(),
    lastSeenAt: tz("last_seen_at").notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: tz("expires_at").notNull(),
    revokedAt: tz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash_key").on(t.tokenHash),
    index("refresh_tokens_user_idx").on(t.userId),
    index("refresh_tokens_session_idx").on(t.sessionId),
  ],
);

export const queues = pgTable(
  "queues",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    greetingMessage: text("greeting_message").notNull().default(""),
    /** Business hours (issue 11); null = always open. */
    schedule: jsonb("schedule").$type<BusinessSchedule>(),
    /** Issue 23 §6: "off", "optional" or "required": whether Resolve and Protocolo ask for a closing reason. */
    closingReason: text("closing_reason").$type<ClosingReasonMode>().notNull().default("off"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("queues_name_key").on(sql`lower(${t.name})`), uniqueIndex("queues_color_key").on(sql`lower(${t.color})`)],
);

export const userQueues = pgTable(
  "user_queues",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.queueId] }), index("user_queues_queue_idx").on(t.queueId)],
);

export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    number: text("number").notNull(),
    email: text("email").notNull().default(""),
    profilePicUrl: text("profile_pic_url").notNull().default(""),
    isGroup: boolean("is_group").notNull().default(false),
    /**
     * The customer's WhatsApp LID ("…@lid"), when known. A customer WhatsApp shows only by LID has
     * that LID as `number` until their phone number becomes known (then the two are merged).
     */
    lid: text("lid"),
    /**
     * Issue 18: the customer's business-scoped user id on the Cloud API (BSUID, "BR.1502…"), when
     * known. A customer who hides their phone number has it as `number` too until the number is known.
     */
    bsuid: text("bsuid"),
    /** Issue 18: the WhatsApp username the customer chose (display only; it may change, the BSUID does not). */
    username: text("username"),
    /** Issue 22 §1 (migration 0034): when a retention policy anonymised the contact (null: never). */
    anonymisedAt: tz("anonymised_at"),
    /** Issue 23 §5: the agent whose customer this is (0031_contact_owner; modules/contact-owner). */
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("contacts_number_key").on(t.number),
    index("contacts_owner_idx").on(t.ownerUserId).where(sql`${t.ownerUserId} is not null`),
    uniqueIndex("contacts_lid_key").on(t.lid).where(sql`${t.lid} is not null`),
    uniqueIndex("contacts_bsuid_key").on(t.bsuid).where(sql`${t.bsuid} is not null`),
    index("contacts_name_idx").on(sql`lower(${t.name})`, t.id),
    index("contacts_name_trgm").using("gin", trgm(t.name)),
    index("contacts_number_trgm").using("gin", trgm(t.number)),
    // The contact search's one predicate (contacts.repo): a function of name and number (0006_lean_indexes).
    index("contacts_search_trgm").using(
      "gin",
      sql`zapdesk_contact_search_key(${sql.identifier("name")}, ${sql.identifier("number")}) gin_trgm_ops`,
    ),
  ],
);

export const whatsapps = pgTable(
  "whatsapps",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    provider: text("provider").notNull().default("baileys"),
    status: text("status").notNull().default("OPENING"),
    qrcode: text("qrcode").notNull().default(""),
    retries: integer("retries").notNull().default(0),
    isDefault: boolean("is_default").notNull().default(false),
    greetingMessage: text("greeting_message").notNull().default(""),
    farewellMessage: text("farewell_message").notNull().default(""),
    /** A CONNECTION_STATUS_REASONS code explaining the status to admins, or null. */
    statusReason: text("status_reason"),
    /** QR connections paired by phone number: the number, and the code WhatsApp gave for it. */
    pairingPhone: text("pairing_phone"),
    pairingCode: text("pairing_code").notNull().default(""),
    /** Send pacing applied by the outbox (minimum gap and random extra, in ms). */
    sendMinGapMs: integer("send_min_gap_ms").notNull().default(0),
    sendJitterMs: integer("send_jitter_ms").notNull().default(0),
    /** Issue 11 CSAT: the question sent after a resolve (empty: off), and how long an answer is awaited. */
    ratingMessage: text("rating_message").notNull().default(""),
    ratingTimeoutMinutes: integer("rating_timeout_minutes").notNull().default(1440),
    /** Cloud API: Meta's ids, the secrets encrypted (lib/secret-box), the webhook verify token. */
    cloudPhoneNumberId: text("cloud_phone_number_id"),
    cloudBusinessAccountId: text("cloud_business_account_id"),
    cloudAccessToken: text("cloud_access_token"),
    cloudAppSecret: text("cloud_app_secret"),
    cloudVerifyToken: text("cloud_verify_token"),
    /** Health for the Connections screen. */
    lastEventAt: tz("last_event_at"),
    reconnectsDay: text("reconnects_day"),
    reconnectsToday: integer("reconnects_today").notNull().default(0),
    lastError: text("last_error"),
    lastErrorAt: tz("last_error_at"),
    /** What WhatsApp restricts on the number (QR: reach-out time-lock, monthly cap on new chats); null: nothing reported. */
    restriction: jsonb("restriction").$type<ConnectionRestriction>(),
    /** The process that owns the live session, and until when (design §2, scaled out). */
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: tz("lease_expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("whatsapps_name_key").on(sql`lower(${t.name})`),
    uniqueIndex("whatsapps_one_default").on(t.isDefault).where(sql`${t.isDefault}`),
    uniqueIndex("whatsapps_cloud_phone_key").on(t.cloudPhoneNumberId).where(sql`${t.cloudPhoneNumberId} is not null`),
  ],
);

/** Baileys auth state, one row per key, so any process can take a connection over. */
export const whatsappAuth = pgTable(
  "whatsapp_auth",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: jsonb("value").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.key] })],
);

export const whatsappQueues = pgTable(
  "whatsapp_queues",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index("whatsapp_queues_queue_idx").on(t.queueId)],
);

export const tickets = pgTable(
  "tickets",
  {
    id: serial("id").primaryKey(),
    status: text("status").notNull().default("pending"),
    unreadMessages: integer("unread_messages").notNull().default(0),
    lastMessage: text("last_message").notNull().default(""),
    isGroup: boolean("is_group").notNull().default(false),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    /** When the queue menu was last sent, so a chatty customer is not flooded. */
    menuSentAt: tz("menu_sent_at"),
    /** Issue 23 §3 (0036_menus): where the customer is in the connection's menu tree, their invalid answers there, when the level times out. */
    menuNodeId: integer("menu_node_id").references((): AnyPgColumn => menuNodes.id, { onDelete: "set null" }),
    menuRetries: integer("menu_retries").notNull().default(0),
    menuDeadlineAt: tz("menu_deadline_at"),
    protocol: text("protocol"),
    /** When the customer last wrote (the Cloud API's 24-hour window runs from it). */
    lastInboundAt: tz("last_inbound_at"),
    /** Issue 13: when the ticket started waiting (stamped by a trigger on entering pending; null otherwise). */
    waitingSince: tz("waiting_since"),
    /** The queue's local date the out-of-hours message last went to this ticket (once a day). */
    outOfHoursSentOn: date("out_of_hours_sent_on", { mode: "string" }),
    /** Issue 11 CSAT: the customer's 1–5 answer, and when it came. */
    rating: integer("rating"),
    ratedAt: tz("rated_at"),
    /** Issue 20: the agent the rated conversation was resolved by (the rating is theirs, wherever the ticket goes next). */
    ratedUserId: integer("rated_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Issue 13 metrics (maintained by triggers, migration 0015): first agent reply, first acceptance, closing. */
    firstResponseAt: tz("first_response_at"),
    acceptedAt: tz("accepted_at"),
    closedAt: tz("closed_at"),
    /**
     * Issue 23 §6: the ticket's last close, kept when it is reopened (closed_at is not) and replaced at
     * its next close: when, by which agent, why (0026_closing_reasons).
     */
    closingAt: tz("closing_at"),
    closingUserId: integer("closing_user_id").references(() => users.id, { onDelete: "set null" }),
    closingReasonId: integer("closing_reason_id").references(() => closingReasons.id),
    closingValue: numeric("closing_value", { precision: 14, scale: 2, mode: "number" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("tickets_rated_at_idx").on(t.ratedAt).where(sql`${t.ratedAt} is not null`),
    index("tickets_menu_deadline_idx").on(t.menuDeadlineAt).where(sql`${t.menuDeadlineAt} is not null`),
    // one active ticket per contact and connection (design §4)
    uniqueIndex("tickets_one_active").on(t.contactId, t.whatsappId).where(sql`${t.status} in ('pending', 'open')`),
    // Plain DESC (nulls first) is what `order by ... desc` asks for; drizzle's default, DESC NULLS
    // LAST, would make PostgreSQL read every matching row and sort instead of walking the index.
    index("tickets_status_updated_idx").on(t.status, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("tickets_status_waiting_idx").on(t.status, t.waitingSince, t.updatedAt, t.id),
    index("tickets_queue_status_updated_idx").on(t.queueId, t.status, t.updatedAt.desc().nullsFirst()),
    index("tickets_user_status_updated_idx").on(t.userId, t.status, t.updatedAt.desc().nullsFirst()),
    index("tickets_contact_idx").on(t.contactId, t.whatsappId, t.updatedAt.desc().nullsFirst()),
    index("tickets_updated_idx").on(t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Serves the inbox count as an index-only scan.
    index("tickets_status_user_queue_idx").on(t.status, t.userId, t.queueId),
    index("tickets_created_idx").on(t.createdAt),
    // Issue 13: the dashboard's metrics read only this index (created range, then the stored timestamps).
    // Issue 23 §6: the closing report and the tickets export read the period's closes; a reason in use is found.
    index("tickets_closing_at_idx").on(t.closingAt).where(sql`${t.closingAt} is not null`),
    index("tickets_closing_reason_idx").on(t.closingReasonId).where(sql`${t.closingReasonId} is not null`),
    index("tickets_metrics_idx").on(t.createdAt, t.isGroup, t.queueId, t.userId, t.firstResponseAt, t.acceptedAt, t.closedAt),
  ],
);

export const messages = pgTable(
  "messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** WhatsApp's own message id (a string); null until an outbound message is sent. */
    wid: text("wid"),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull().default(""),
    fromMe: boolean("from_me").notNull().default(false),
    fromBot: boolean("from_bot").notNull().default(false),
    read: boolean("read").notNull().default(false),
    ack: integer("ack").notNull().default(0),
    mediaType: text("media_type").notNull().default("chat"),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    mediaMime: text("media_mime"),
    mediaError: text("media_error"),
    isDeleted: boolean("is_deleted").notNull().default(false),
    isEdited: boolean("is_edited").notNull().default(false),
    /** A private note (issue 11): colleagues only, never sent to the channel. */
    isNote: boolean("is_note").notNull().default(false),
    quotedMsgId: bigint("quoted_msg_id", { mode: "number" }),
    /** Why WhatsApp refused the message (ack -1): the provider's code and a readable reason. */
    errorCode: text("error_code"),
    errorTitle: text("error_title"),
    /** Reactions on this message: [{ by, emoji, fromMe, name }], one per participant. */
    reactions: jsonb("reactions").$type<StoredReaction[]>().notNull().default(sql`'[]'::jsonb`),
    /** Provider-specific data needed to quote, delete, resend or re-download later. */
    raw: jsonb("raw"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * The body's words for ticket search: `simple` (no stemming) over unaccented text, so "acao"
     * finds "ação" in any language. zapdesk_unaccent is migration 0005's IMMUTABLE wrapper. An
     * automatic message has none (issue 20, migration 0020): search matches what people wrote.
     */
    search: tsvector("search").generatedAlwaysAs(
      sql`CASE WHEN from_bot THEN NULL ELSE to_tsvector('simple'::regconfig, zapdesk_unaccent(body)) END`,
    ),
  },
  (t) => [
    uniqueIndex("messages_wid_key").on(t.whatsappId, t.wid),
    index("messages_ticket_created_idx").on(t.ticketId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("messages_search_idx").using("gin", t.search),
    index("messages_quoted_idx").on(t.quotedMsgId),
  ],
);

// The channels' tables (inbound log, LID mappings, Cloud templates) live beside this file.
export * from "./schema-bots.js";
export * from "./schema-channels.js";
export * from "./schema-closing-reasons.js";
export * from "./schema-consent.js";
export * from "./schema-contacts.js";
// Issue 11: satisfaction ratings (CSAT).
export * from "./schema-csat.js";
// Issue 21: the importer's source-id mapping.
export * from "./schema-import.js";
export * from "./schema-macros.js";
export * from "./schema-menus.js";
export * from "./schema-notes.js";
export * from "./schema-outbox.js";
export * from "./schema-privacy.js";
export * from "./schema-push.js";
export * from "./schema-quick-answers.js";
export * from "./schema-retention.js";
export * from "./schema-routing.js";
export * from "./schema-rules.js";
export * from "./schema-schedules.js";
export * from "./schema-settings.js";
export * from "./schema-tags.js";
export * from "./schema-two-factor.js";
export * from "./schema-webhooks.js";
