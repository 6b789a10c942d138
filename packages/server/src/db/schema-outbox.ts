import { bigint, boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { messages } from "./schema.js";
import { createdAt, tz } from "./schema-columns.js";

/** Durable outbound queue: a row per message still to be sent (design §4). */
export const outbox = pgTable(
  "outbox",
  {
    messageId: bigint("message_id", { mode: "number" })
      .primaryKey()
      .references(() => messages.id, { onDelete: "cascade" }),
    kind: text("kind").notNull().default("send"),
    attempts: integer("attempts").notNull().default(0),
    runAt: tz("run_at").notNull().defaultNow(),
    lockedUntil: tz("locked_until"),
    lastError: text("last_error"),
    /** Held while the connection is restricted (an automatic message that would open a chat): looked at again, never failed. */
    held: boolean("held").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("outbox_run_at_idx").on(t.runAt)],
);
