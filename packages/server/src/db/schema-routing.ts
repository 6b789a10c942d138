import { boolean, integer, pgTable } from "drizzle-orm/pg-core";
import { queues, users } from "./schema.js";
import { updatedAt } from "./schema-columns.js";

/** Issue 13: automatic assignment of a queue (0014_routing); the round-robin pointer is durable. */
export const routingQueues = pgTable("routing_queues", {
  queueId: integer("queue_id")
    .primaryKey()
    .references(() => queues.id, { onDelete: "cascade" }),
  autoAssign: boolean("auto_assign").notNull().default(false),
  lastAssignedUserId: integer("last_assigned_user_id").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

/** Issue 13: an agent's capacity for automatic assignment; no row or null = unlimited. */
export const routingUsers = pgTable("routing_users", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  maxOpenTickets: integer("max_open_tickets"),
  updatedAt: updatedAt(),
});
