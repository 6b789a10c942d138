import { sql } from "drizzle-orm";
import { boolean, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./schema-columns.js";

/**
 * Issue 23 §6: why tickets were closed (0026_closing_reasons). Archived reasons are no longer
 * offered for new closes but stay on the tickets that have them and in the reports; a reason on
 * any ticket cannot be deleted (the tickets' foreign key refuses it too).
 */
export const closingReasons = pgTable(
  "closing_reasons",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** The reason asks for a value at close (e.g. a sale amount). */
    asksValue: boolean("asks_value").notNull().default(false),
    archived: boolean("archived").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("closing_reasons_name_key").on(sql`lower(${t.name})`)],
);
