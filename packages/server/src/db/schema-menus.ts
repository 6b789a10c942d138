import type { MenuTarget } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import { type AnyPgColumn, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { queues, users, whatsapps } from "./schema.js";
import { createdAt, updatedAt } from "./schema-columns.js";

/**
 * Issue 23 §3: a connection's menu tree (0036_menus; modules/menus). The root (no parent) is the
 * first level; every other node is an option of its parent's level, shown as "*n* - label" in
 * `position` order. A node of target "menu" is a level: its words, timeout and fallback apply
 * while the customer is at it. `message` is what choosing the option sends (a sub-menu's header);
 * the root's null message is the connection's greeting.
 */
export const menuNodes = pgTable(
  "menu_nodes",
  {
    id: serial("id").primaryKey(),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    parentId: integer("parent_id").references((): AnyPgColumn => menuNodes.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    label: text("label").notNull().default(""),
    message: text("message"),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    mediaMime: text("media_mime"),
    target: text("target").$type<MenuTarget>().notNull().default("menu"),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    personWords: jsonb("person_words").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    timeoutMinutes: integer("timeout_minutes"),
    timeoutQueueId: integer("timeout_queue_id").references(() => queues.id, { onDelete: "set null" }),
    fallbackQueueId: integer("fallback_queue_id").references(() => queues.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("menu_nodes_whatsapp_idx").on(t.whatsappId, t.parentId, t.position),
    uniqueIndex("menu_nodes_one_root").on(t.whatsappId).where(sql`${t.parentId} is null`),
  ],
);
