import type { Tag } from "@zapdesk/core";
import {
  and,
  asc,
  count,
  desc,
  eq,
  fillPlaceholders,
  getTableColumns,
  inArray,
  isNull,
  notInArray,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { namedStatement, prepared, type Read, readOf, rowOf, runNamed } from "../../db/prepared.js";
import { contactChanges, contactExtraInfo, contacts, tickets, users } from "../../db/schema.js";
import { contactTagsJson } from "../tags/tags.repo.js";
import { gateValues, type TicketReader, ticketReachableGate } from "../tickets/access.js";
import { cappedCount, countCapOf } from "../tickets/search-count.js";
import { escapeLike } from "../users/users.repo.js";

export type ContactRow = typeof contacts.$inferSelect;
export type ExtraInfoRow = typeof contactExtraInfo.$inferSelect;

/**
 * What a contact search matches: the lowercased name and the number (a function of the database,
 * 0006_lean_indexes, with its own trigram index contacts_search_trgm).
 */
const contactSearchKey = sql`zapdesk_contact_search_key(${contacts.name}, ${contacts.number})`;

/**
 * A contact whose search key holds `pattern` (a LIKE pattern, lowercased here): the contact
 * search's predicate, and the contacts leg of the ticket search (issue 24 item 3). It is planned on
 * contacts_search_trgm at any table size (migration 0040: the key's cost makes a scan lose).
 */
export const contactSearchMatch = (pattern: unknown): SQL => sql`${contactSearchKey} like lower(${pattern})`;

/** Issue 23 §5: the owner filter's shape: one user's contacts, or the contacts without an owner. */
type OwnerShape = "user" | "none" | undefined;

/** A contact as a list shows it: its row, its tags (issue 11) and its owner (issue 23 §5), read with the page. */
export type ListedContact = ContactRow & { tagList: Tag[]; owner: { id: number; name: string } | null };

// Each listed contact's tags and owner, as columns of the page (evaluated for the page's rows only).
const tagListSql = contactTagsJson(contacts.id);
const ownerSql = sql<{ id: number; name: string } | null>`(select json_build_object('id', u.id, 'name', u.name)
  from ${users} u where u.id = ${contacts.ownerUserId})`;

const ownerWhere = (owner: OwnerShape) =>
  owner === "user"
    ? eq(contacts.ownerUserId, sql.placeholder("owner"))
    : owner === "none"
      ? isNull(contacts.ownerUserId)
      : undefined;

/** The contact list's page and count, with or without a search; values are placeholders. */
function contactQueries(db: Db, search: boolean, owner?: OwnerShape) {
  const where = and(search ? contactSearchMatch(sql.placeholder("pattern")) : undefined, ownerWhere(owner));
  return {
    page: db
      .select({ ...getTableColumns(contacts), tagList: tagListSql, owner: ownerSql })
      .from(contacts)
      .where(where)
      .orderBy(sql`lower(${contacts.name})`, asc(contacts.id))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset")),
    // The plain list's count (a search counts in `searchInOne`).
    count: db.select({ value: count() }).from(contacts).where(where),
  };
}

const contactColumns = getTableColumns(contacts);
const contactOfRaw = rowOf(contactColumns) as (raw: Record<string, unknown>) => ContactRow;
const p = (name: string) => sql.placeholder(name);

/**
 * Issue 24 item 3: a search's count and page in one statement. The matches, up to the count's cap,
 * are read once from contacts_search_trgm, each row's key checked once (the count's plan); when
 * they are all there (fewer than the cap), the page is sorted from them, with no second walk of the
 * name order that checks the key again (the page alone cost a common surname 745 keys, as much as a
 * third of the search). Past the cap the page comes from `contactQueries`' page, as before. One
 * round trip instead of three (page, count, then tags and owners).
 */
const searchInOne = (owner: OwnerShape) =>
  namedStatement(
    `contacts_search_one${owner ? `_owner_${owner}` : ""}`,
    sql`with matching as materialized (
        select ${contacts.id} as id, lower(${contacts.name}) as sort_name from ${contacts}
        where ${and(contactSearchMatch(p("pattern")), ownerWhere(owner))} limit ${p("countLimit")}),
      total as (select count(*)::int as n from matching),
      page as (select id from matching where (select n from total) < ${p("countLimit")}
        order by sort_name, id limit ${p("limit")} offset ${p("offset")})
      select total.n as "total", listed.* from total left join lateral (
        select ${sql.raw(
          Object.values(contactColumns)
            .map((c) => `"contacts"."${c.name}"`)
            .join(", "),
        )}, ${tagListSql} as "tag_list", ${ownerSql} as "owner"
        from ${contacts} where ${contacts.id} = any(array(select id from page))) listed on true
      order by lower(listed.name), listed.id`,
  );
const searchStatements = { user: searchInOne("user"), none: searchInOne("none"), any: searchInOne(undefined) };

const contactParams = (search: string, limit: number, offset: number) => ({
  pattern: `%${escapeLike(search)}%`,
  limit,
  offset,
  countLimit: countCapOf({ limit, offset }) + 1,
});

/**
 * The first page's statements of a search, with their values (bench/explain-contacts.ts shows their
 * plans): the search (its count and page in one), and the page past the count's cap.
 */
export function contactSearchSql(db: Db, search: string) {
  const queries = contactQueries(db, true);
  const values = contactParams(search, 20, 0);
  const filled = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql: text, params } = query.toSQL();
    return { sql: text, params: fillPlaceholders(params, values) };
  };
  const one = searchStatements.any;
  return { search: { sql: one.text, params: fillPlaceholders(one.params, values) }, page: filled(queries.page) };
}

export async function listContacts(
  db: Db,
  options: { search: string; limit: number; offset: number; owner?: number | "none" },
): Promise<{ rows: ListedContact[]; count: number; countCapped: boolean }> {
  const search = options.search !== "";
  const owner: OwnerShape = options.owner === undefined ? undefined : options.owner === "none" ? "none" : "user";
  const name = `${search ? "contacts_search" : "contacts_all"}${owner ? `_owner_${owner}` : ""}`;
  const page = prepared(db, name, (db, name) => contactQueries(db, search, owner).page.prepare(name));
  const params = {
    ...contactParams(options.search, options.limit, options.offset),
    ...(typeof options.owner === "number" ? { owner: options.owner } : {}),
  };
  if (!search) {
    // The plain list counts them all; a search counts up to a cap in its own statement (`searchInOne`).
    const counted = prepared(db, `${name}_count`, (db, name) => contactQueries(db, false, owner).count.prepare(name));
    const [rows, [total]] = await Promise.all([page.execute(params), counted.execute(params)]);
    return { rows, count: total.value, countCapped: false };
  }
  const found = await runNamed(db, searchStatements[owner ?? "any"], params);
  const total = Number(found[0]?.total ?? 0);
  const cap = countCapOf(options);
  // More matches than the cap: the page walks the name order, and the count says "cap+".
  if (total > cap) return { rows: await page.execute(params), ...cappedCount(total, cap) };
  const rows = found
    .filter((raw) => raw.id !== null)
    .map((raw) =>
      Object.assign(contactOfRaw(raw), {
        tagList: raw.tag_list as Tag[],
        owner: raw.owner as ListedContact["owner"],
      }),
    );
  return { rows, count: total, countCapped: false };
}

export async function findContactById(db: Db, id: number): Promise<ContactRow | undefined> {
  const [row] = await db.select().from(contacts).where(eq(contacts.id, id));
  return row;
}

export async function lockContact(db: Db, id: number): Promise<ContactRow | undefined> {
  const [row] = await db.select().from(contacts).where(eq(contacts.id, id)).for("update");
  return row;
}

/** Who may act on the contact's active (pending or open) tickets: their assignee and queue. */
export function activeTicketScopes(db: Db, contactId: number): Promise<{ userId: number | null; queueId: number | null }[]> {
  return db
    .select({ userId: tickets.userId, queueId: tickets.queueId })
    .from(tickets)
    .where(and(eq(tickets.contactId, contactId), inArray(tickets.status, ["pending", "open"])));
}

export type ContactChangeRow = typeof contactChanges.$inferSelect;

export async function insertContactChange(db: Db, values: typeof contactChanges.$inferInsert): Promise<void> {
  await db.insert(contactChanges).values(values);
}

/** The contact's number changes, newest first. */
export function listContactChanges(db: Db, contactId: number, limit: number): Promise<ContactChangeRow[]> {
  return db
    .select()
    .from(contactChanges)
    .where(eq(contactChanges.contactId, contactId))
    .orderBy(desc(contactChanges.id))
    .limit(limit);
}

export async function findContactByNumber(db: Db, number: string): Promise<ContactRow | undefined> {
  const [row] = await db.select().from(contacts).where(eq(contacts.number, number));
  return row;
}

export function listExtraInfo(db: Db, contactId: number): Promise<ExtraInfoRow[]> {
  return db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, contactId)).orderBy(asc(contactExtraInfo.id));
}

/**
 * The extra info of a ticket's contact, as a read that can ride with the ticket's (a ticket's GET,
 * db/prepared.ts `readTogether`). For a `reader` who is not an admin, nothing is read unless the
 * ticket is one the reader may reach (tickets/access.ts `ticketReachableGate`), as a chat's page;
 * the service checks the ticket read beside it again.
 */
export function ticketExtraInfoRead(db: Db, ticketId: number, reader: Omit<TicketReader, "hideChoosing">): Read<ExtraInfoRow[]> {
  const build = (gate: SQL | undefined) => (db: Db, name: string) =>
    db
      .select()
      .from(contactExtraInfo)
      .where(
        and(
          eq(
            contactExtraInfo.contactId,
            sql`(select ${tickets.contactId} from ${tickets} where ${tickets.id} = ${sql.placeholder("ticketId")})`,
          ),
          gate,
        ),
      )
      .orderBy(asc(contactExtraInfo.id))
      .prepare(name);
  const statement = reader.admin
    ? prepared(db, "ticket_extra_info", build(undefined))
    : prepared(db, "ticket_extra_info_reader", build(ticketReachableGate));
  return readOf(statement, { ticketId, ...gateValues(reader) }, (rows) => rows);
}

export async function insertContact(
  db: Db,
  values: { name: string; number: string; email: string; isGroup?: boolean; profilePicUrl?: string },
) {
  const [row] = await db.insert(contacts).values(values).returning();
  return row;
}

export async function updateContact(
  db: Db,
  id: number,
  values: Partial<Pick<ContactRow, "name" | "number" | "email" | "profilePicUrl" | "lid" | "bsuid">>,
) {
  const [row] = await db
    .update(contacts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(contacts.id, id))
    .returning();
  return row as ContactRow | undefined;
}

export async function deleteContact(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(contacts).where(eq(contacts.id, id)).returning({ id: contacts.id });
  return rows.length > 0;
}

/**
 * Make the contact's extra info exactly `items`: rows with an id of this contact
 * are updated, rows without id inserted, and the rest removed.
 */
export async function replaceExtraInfo(
  db: Db,
  contactId: number,
  items: { id?: number; name: string; value: string }[],
): Promise<void> {
  const keepIds = items.flatMap((i) => (i.id ? [i.id] : []));
  await db
    .delete(contactExtraInfo)
    .where(
      keepIds.length
        ? and(eq(contactExtraInfo.contactId, contactId), notInArray(contactExtraInfo.id, keepIds))
        : eq(contactExtraInfo.contactId, contactId),
    );
  const owned = keepIds.length
    ? await db
        .select({ id: contactExtraInfo.id })
        .from(contactExtraInfo)
        .where(and(eq(contactExtraInfo.contactId, contactId), inArray(contactExtraInfo.id, keepIds)))
    : [];
  const ownedIds = new Set(owned.map((r) => r.id));
  for (const item of items) {
    // An id that belongs to another contact is treated as a new row, never as a write into that contact.
    if (item.id && ownedIds.has(item.id)) {
      await db
        .update(contactExtraInfo)
        .set({ name: item.name, value: item.value, updatedAt: new Date() })
        .where(eq(contactExtraInfo.id, item.id));
    } else {
      await db.insert(contactExtraInfo).values({ contactId, name: item.name, value: item.value });
    }
  }
}
