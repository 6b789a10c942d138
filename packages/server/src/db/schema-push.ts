import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./schema.js";
import { createdAt, tz, updatedAt } from "./schema-columns.js";

/**
 * Issue 13 item 7: a browser's push subscription, tied to the user signed in when it subscribed.
 * One row per endpoint (a browser profile); a 404/410 from the push service deletes it.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** Consecutive failed deliveries (not 404/410); reset by a success. */
    failures: integer("failures").notNull().default(0),
    lastSuccessAt: tz("last_success_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint_key").on(t.endpoint), index("push_subscriptions_user_idx").on(t.userId)],
);

/** A user's notification choices; no row means every channel on. */
export const notificationPreferences = pgTable("notification_preferences", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  sound: boolean("sound").notNull().default(true),
  desktop: boolean("desktop").notNull().default(true),
  push: boolean("push").notNull().default(true),
  updatedAt: updatedAt(),
});
