import { bigint, index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { messages, queues, tickets } from "./schema.js";
import { createdAt, tz, updatedAt } from "./schema-columns.js";

/** A contact field ↔ bot variable pair (names as the admin typed them). */
export interface BotVariable {
  field: string;
  variable: string;
}

/**
 * Issue 23 §4: a queue's bot (0037_bots). New conversations entering the queue go to it before any
 * agent. `kind` typebot: `baseUrl` + `publicId` (+ sealed `apiToken`); kind webhook: `webhookUrl` and a
 * sealed signing `secret` we generated.
 */
export const queueBots = pgTable("queue_bots", {
  queueId: integer("queue_id")
    .primaryKey()
    .references(() => queues.id, { onDelete: "cascade" }),
  kind: text("kind").notNull(),
  baseUrl: text("base_url"),
  publicId: text("public_id"),
  apiToken: text("api_token"),
  webhookUrl: text("webhook_url"),
  secret: text("secret"),
  variablesIn: jsonb("variables_in").$type<BotVariable[]>().notNull().default([]),
  variablesOut: jsonb("variables_out").$type<BotVariable[]>().notNull().default([]),
  /** Whole messages that mean "a person, please" (matched as consent's words: case, accents, punctuation aside). */
  handoverWords: text("handover_words").array().notNull(),
  /** Minutes without a customer message before the queue takes the ticket back. */
  timeoutMinutes: integer("timeout_minutes").notNull().default(30),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A ticket held by its queue's bot: while the row exists agents do not get the ticket. */
export const botSessions = pgTable(
  "bot_sessions",
  {
    ticketId: integer("ticket_id")
      .primaryKey()
      .references(() => tickets.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** Typebot's sessionId, once started. */
    sessionId: text("session_id"),
    /** Typebot's typebot id and result id, to read the flow's variables (results API). */
    typebotId: text("typebot_id"),
    resultId: text("result_id"),
    /** The choice input the bot is waiting on: item texts in order (numbered answers map back). */
    choices: jsonb("choices").$type<string[]>(),
    /** The type of the input the bot is waiting on (Typebot's "text input", "file input"…), null when none. */
    inputType: text("input_type"),
    lastActivityAt: tz("last_activity_at").notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index("bot_sessions_activity_idx").on(t.lastActivityAt)],
);

/** One customer message for the bot, written with the message; done (deleted) in the transaction storing the answer. */
export const botJobs = pgTable(
  "bot_jobs",
  {
    id: serial("id").primaryKey(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    messageId: bigint("message_id", { mode: "number" })
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    attempts: integer("attempts").notNull().default(0),
    lockedUntil: tz("locked_until"),
    createdAt: createdAt(),
  },
  (t) => [index("bot_jobs_ticket_idx").on(t.ticketId, t.id)],
);
