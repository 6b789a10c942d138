import { index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { contacts, users } from "./schema.js";
import { createdAt, updatedAt } from "./schema-columns.js";

/** A contact's extra fields (spec §2). */
export const contactExtraInfo = pgTable(
  "contact_extra_info",
  {
    id: serial("id").primaryKey(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    value: text("value").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("contact_extra_info_contact_idx").on(t.contactId)],
);

/** Who changed a contact's number, when, from what to what (issue 12: a number is where replies go). */
export const contactChanges = pgTable(
  "contact_changes",
  {
    id: serial("id").primaryKey(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The name at the time, kept when the user is deleted later. */
    userName: text("user_name").notNull(),
    oldNumber: text("old_number").notNull(),
    newNumber: text("new_number").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("contact_changes_contact_idx").on(t.contactId, t.id)],
);
