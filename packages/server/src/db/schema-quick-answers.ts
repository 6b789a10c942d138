import { index, pgTable, serial, text } from "drizzle-orm/pg-core";
import { createdAt, trgm, updatedAt } from "./schema-columns.js";

export const quickAnswers = pgTable(
  "quick_answers",
  {
    id: serial("id").primaryKey(),
    shortcut: text("shortcut").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("quick_answers_shortcut_trgm").using("gin", trgm(t.shortcut)),
    index("quick_answers_message_trgm").using("gin", trgm(t.message)),
  ],
);
