import { bigint, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./schema.js";
import { createdAt, tz } from "./schema-columns.js";

/** Issue 22 §5: a user's TOTP secret (sealed), on once confirmed; `lastStep` refuses a code's second use. */
export const userTwoFactor = pgTable("user_two_factor", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  confirmedAt: tz("confirmed_at"),
  lastStep: bigint("last_step", { mode: "number" }),
  createdAt: createdAt(),
});

/** Issue 22 §5: one-time recovery codes, stored as hashes only. */
export const userRecoveryCodes = pgTable(
  "user_recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: tz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("user_recovery_codes_user_hash_key").on(t.userId, t.codeHash)],
);
