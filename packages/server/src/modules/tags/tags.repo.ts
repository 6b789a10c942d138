import type { Tag } from "@zapdesk/core";
import { type AnyColumn, and, asc, eq, inArray, notInArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { prepared } from "../../db/prepared.js";
import { contactTags, tags, ticketTags } from "../../db/schema.js";

const tagColumns = { id: tags.id, name: tags.name, color: tags.color };

/**
 * A ticket's or a contact's tags as one JSON column of its row, `[{id, name, color}]` in the order
 * `tagsOfTickets` reads them (lower(name), then id): for statements that bring the tags with their
 * rows (a chat's ticket, the inbox's and the search's pages, the contacts' list, an inbound
 * message's ticket), evaluated for the rows they return. `owner` is the row's id (a column, or the
 * raw SQL naming it).
 */
const tagsJson = (link: typeof ticketTags | typeof contactTags, linkOwner: AnyColumn, owner: AnyColumn | SQL) =>
  sql<Tag[]>`coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color)
    order by lower(tg.name), tg.id) from ${link} join ${tags} tg on tg.id = ${link.tagId} where ${linkOwner} = ${owner}), '[]'::json)`;

export const ticketTagsJson = (ticketId: AnyColumn | SQL) => tagsJson(ticketTags, ticketTags.ticketId, ticketId);
export const contactTagsJson = (contactId: AnyColumn | SQL) => tagsJson(contactTags, contactTags.contactId, contactId);

export async function listTags(db: Db): Promise<Tag[]> {
  return db
    .select(tagColumns)
    .from(tags)
    .orderBy(asc(sql`lower(${tags.name})`), asc(tags.id));
}

export async function findTag(db: Db, id: number): Promise<Tag | undefined> {
  const [row] = await db.select(tagColumns).from(tags).where(eq(tags.id, id));
  return row;
}

export async function insertTag(db: Db, values: { name: string; color: string }): Promise<Tag> {
  const [row] = await db.insert(tags).values(values).returning(tagColumns);
  return row;
}

export async function updateTag(db: Db, id: number, values: { name?: string; color?: string }): Promise<Tag | undefined> {
  const [row] = await db
    .update(tags)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(tags.id, id))
    .returning(tagColumns);
  return row;
}

export async function deleteTag(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(tags).where(eq(tags.id, id)).returning({ id: tags.id });
  return rows.length > 0;
}

/** Which of these ids are tags (the rest are unknown), locked so none is deleted before the caller commits. */
export async function existingTagIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.select({ id: tags.id }).from(tags).where(inArray(tags.id, ids)).for("key share");
  return new Set(rows.map((r) => r.id));
}

function group<K extends number>(rows: { ownerId: K; id: number; name: string; color: string }[]): Map<K, Tag[]> {
  const map = new Map<K, Tag[]>();
  for (const { ownerId, ...tag } of rows) {
    const list = map.get(ownerId);
    if (list) list.push(tag);
    else map.set(ownerId, [tag]);
  }
  return map;
}

/** The tags of a page of tickets in one query (a prepared statement: the inbox's hot path). */
export async function tagsOfTickets(db: Db, ticketIds: number[]): Promise<Map<number, Tag[]>> {
  if (!ticketIds.length) return new Map();
  const statement = prepared(db, "ticket_tags_of", (db, name) =>
    db
      .select({ ownerId: ticketTags.ticketId, ...tagColumns })
      .from(ticketTags)
      .innerJoin(tags, eq(tags.id, ticketTags.tagId))
      .where(sql`${ticketTags.ticketId} = any(${sql.placeholder("ids")}::int[])`)
      .orderBy(asc(sql`lower(${tags.name})`), asc(tags.id))
      .prepare(name),
  );
  return group(await statement.execute({ ids: ticketIds }));
}

/** The tags of some contacts in one query. */
export async function tagsOfContacts(db: Db, contactIds: number[]): Promise<Map<number, Tag[]>> {
  if (!contactIds.length) return new Map();
  const rows = await db
    .select({ ownerId: contactTags.contactId, ...tagColumns })
    .from(contactTags)
    .innerJoin(tags, eq(tags.id, contactTags.tagId))
    .where(inArray(contactTags.contactId, contactIds))
    .orderBy(asc(sql`lower(${tags.name})`), asc(tags.id));
  return group(rows);
}

export async function tagsOfContact(db: Db, contactId: number): Promise<Tag[]> {
  return (await tagsOfContacts(db, [contactId])).get(contactId) ?? [];
}

/** Replace a ticket's tags (inside the caller's transaction; ids already checked). */
export async function replaceTicketTags(db: Db, ticketId: number, tagIds: number[]): Promise<void> {
  // Only the tags that go, then only the ones that come: a kept tag is never "added" again (the
  // automation rules' `tagAdded` trigger on ticket_tags sees the rows really inserted).
  await db
    .delete(ticketTags)
    .where(
      tagIds.length
        ? and(eq(ticketTags.ticketId, ticketId), notInArray(ticketTags.tagId, tagIds))
        : eq(ticketTags.ticketId, ticketId),
    );
  if (tagIds.length) {
    await db
      .insert(ticketTags)
      .values(tagIds.map((tagId) => ({ ticketId, tagId })))
      .onConflictDoNothing();
  }
}

/** Replace a contact's tags (inside the caller's transaction; ids already checked). */
export async function replaceContactTags(db: Db, contactId: number, tagIds: number[]): Promise<void> {
  await db.delete(contactTags).where(eq(contactTags.contactId, contactId));
  if (tagIds.length) await db.insert(contactTags).values(tagIds.map((tagId) => ({ contactId, tagId })));
}
