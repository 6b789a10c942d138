import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./schema-columns.js";

/**
 * Issue 22 §4: the audit trail. Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE); no
 * foreign key to users, so a row keeps who it was (id, name, email at the time) after a deletion.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id"),
    userName: text("user_name").notNull().default(""),
    userEmail: text("user_email").notNull().default(""),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    ip: text("ip").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt, t.id),
    index("audit_log_user_idx").on(t.userId, t.id),
    index("audit_log_action_idx").on(t.action, t.id),
    index("audit_log_target_idx").on(t.targetType, t.targetId, t.id),
  ],
);
