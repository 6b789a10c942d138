import { bigint, index, integer, pgTable, serial, uniqueIndex } from "drizzle-orm/pg-core";
import { messages, users } from "./schema.js";
import { createdAt, tz } from "./schema-columns.js";

/**
 * Who a private note mentions (issue 11): one row per mentioned colleague, unread until that
 * colleague opens it. The ticket is the note's own (a merge that moves the note moves its mentions).
 */
export const noteMentions = pgTable(
  "note_mentions",
  {
    id: serial("id").primaryKey(),
    messageId: bigint("message_id", { mode: "number" })
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    readAt: tz("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("note_mentions_message_user_key").on(t.messageId, t.userId),
    index("note_mentions_user_idx").on(t.userId, t.id.desc()),
  ],
);
