import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./schema-columns.js";

/** Install-wide settings, one row per key (modules/settings). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
