import type { Tag } from "@zapdesk/core";
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { tickets, ticketTags } from "../../db/schema.js";
import { tagsOfTickets } from "../tags/tags.repo.js";
import type { Binder } from "./access.js";

/**
 * Issue 11: a ticket matches the tag filter when it has ANY of the tags. One semi-join on
 * ticket_tags (tag_id, ticket_id): the planner reads the tagged ticket ids from that index. The ids
 * enter as the query's binder puts them (literals, or the `tagIds` placeholder, an int array).
 */
export function tagFilter(tagIds: number[], bind: Binder) {
  const tagged = bind.oneOf(ticketTags.tagId, "tagIds", tagIds);
  return inArray(tickets.id, sql`(select ${ticketTags.ticketId} from ${ticketTags} where ${tagged})`);
}

/** Rows of tickets with their tags, loaded for all of them in one query. */
export async function withTicketTags<T extends { ticket: { id: number } }>(db: Db, rows: T[]): Promise<(T & { tags: Tag[] })[]> {
  const tags = await tagsOfTickets(
    db,
    rows.map((r) => r.ticket.id),
  );
  return rows.map((row) => ({ ...row, tags: tags.get(row.ticket.id) ?? [] }));
}
