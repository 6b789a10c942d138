import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { contacts, tickets } from "./schema.js";
import { createdAt, updatedAt } from "./schema-columns.js";

/** Issue 11: labels an admin defines; tickets and contacts carry any number of them (0008_tags). */
export const tags = pgTable(
  "tags",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** "#rrggbb" or "#rgb", lowercased. */
    color: text("color").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("tags_name_key").on(sql`lower(${t.name})`)],
);

export const ticketTags = pgTable(
  "ticket_tags",
  {
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  // The primary key loads a page's tags; (tag, ticket) serves the list's tag filter.
  (t) => [primaryKey({ columns: [t.ticketId, t.tagId] }), index("ticket_tags_tag_idx").on(t.tagId, t.ticketId)],
);

export const contactTags = pgTable(
  "contact_tags",
  {
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.tagId] }), index("contact_tags_tag_idx").on(t.tagId, t.contactId)],
);
