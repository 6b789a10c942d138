import type { Action } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./schema.js";
import { createdAt, updatedAt } from "./schema-columns.js";

/**
 * Issue 23 §2: macros (0032_macros). Personal ones belong to their owner (and go with them);
 * shared ones have no owner. `actions` holds the core action list, validated on every write.
 * No customer data: names, ids of queues, tags and users, and texts an agent wrote.
 */
export const macros = pgTable(
  "macros",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "cascade" }),
    shared: boolean("shared").notNull().default(false),
    actions: jsonb("actions").$type<Action[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("macros_owner_check", sql`${t.shared} = (${t.ownerId} IS NULL)`),
    uniqueIndex("macros_shared_name_key").on(sql`lower(${t.name})`).where(sql`${t.ownerId} IS NULL`),
    uniqueIndex("macros_owner_name_key").on(t.ownerId, sql`lower(${t.name})`).where(sql`${t.ownerId} IS NOT NULL`),
  ],
);
