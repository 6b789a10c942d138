import type { ContactDataCounts, ContactErased } from "@zapdesk/core";
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contacts, messages, tickets } from "../../db/schema.js";
import { previewOf } from "../messages/outbound.js";
import { asInt, removePersonTraces, rowsOf as rows } from "./person-traces.js";

export type ContactRow = typeof contacts.$inferSelect;

/** The contact's tickets, with what decides who hears of their deletion. */
export function ticketsOf(db: Db, contactId: number, lock = false) {
  const query = db
    .select({
      id: tickets.id,
      status: tickets.status,
      userId: tickets.userId,
      queueId: tickets.queueId,
      menuSentAt: tickets.menuSentAt,
    })
    .from(tickets)
    .where(eq(tickets.contactId, contactId))
    .orderBy(tickets.id);
  return lock ? query.for("update") : query;
}

/** What an erasure would remove now (the confirm dialog shows it). */
export async function countContactData(db: Db, contactId: number): Promise<ContactDataCounts> {
  const [row] = await rows<Record<string, unknown>>(
    db,
    sql`
    with t as (select id, status from tickets where contact_id = ${contactId}),
    m as (
      select id, is_note, media_path, ticket_id in (select id from t) as own
      from messages where ticket_id in (select id from t) or contact_id = ${contactId}
    ),
    s as (select media_path from scheduled_messages where contact_id = ${contactId} or ticket_id in (select id from t))
    select
      (select count(*) from t) as tickets,
      (select count(*) from t where status in ('pending', 'open')) as active_tickets,
      (select count(*) from m) as messages,
      (select count(*) from m where is_note) as notes,
      (select count(*) from m where not own) as group_messages,
      (select count(distinct p) from (
        select media_path as p from m where media_path is not null
        union all select media_path from s where media_path is not null) files) as media_files,
      (select count(*) from s) as scheduled_messages,
      (select count(*) from ticket_ratings where contact_id = ${contactId} or ticket_id in (select id from t)) as ratings`,
  );
  return {
    tickets: asInt(row.tickets),
    activeTickets: asInt(row.active_tickets),
    messages: asInt(row.messages),
    notes: asInt(row.notes),
    groupMessages: asInt(row.group_messages),
    mediaFiles: asInt(row.media_files),
    scheduledMessages: asInt(row.scheduled_messages),
    ratings: asInt(row.ratings),
  };
}

export interface ErasedRows {
  erased: ContactErased["erased"];
  /** Files the deleted rows named; removed after commit unless another row still names one. */
  mediaPaths: string[];
  /** Group tickets that lost messages of this person (their preview is refreshed). */
  groupTicketIds: number[];
}

/**
 * Every row of the person, in the caller's transaction (see erase-coverage.ts for the table by
 * table account). Statements that name rows by the contact's messages run before those messages
 * go; the contact row itself goes last, taking its cascades (extra info, number history, tags).
 */
export async function eraseContactRows(tx: Db, contact: ContactRow, ticketIds: number[]): Promise<ErasedRows> {
  const contactId = contact.id;
  const count = async (query: SQL) => asInt((await rows<{ n: unknown }>(tx, query))[0]?.n);
  const traces = await removePersonTraces(tx, contact, ticketIds);

  const schedules = await rows<{ media_path: string | null }>(
    tx,
    sql`delete from scheduled_messages where contact_id = ${contactId} or ticket_id = any(${sql.param(ticketIds)}::int[])
        returning media_path`,
  );

  const inGroups = await rows<{ media_path: string | null; ticket_id: number; is_note: boolean }>(
    tx,
    sql`delete from messages where contact_id = ${contactId} and not (ticket_id = any(${sql.param(ticketIds)}::int[]))
        returning media_path, ticket_id, is_note`,
  );

  const conversation = await rows<{ media_path: string | null; is_note: boolean }>(
    tx,
    sql`delete from messages where ticket_id = any(${sql.param(ticketIds)}::int[]) returning media_path, is_note`,
  );
  const ratings = await count(sql`
    with d as (delete from ticket_ratings where contact_id = ${contactId} or ticket_id = any(${sql.param(ticketIds)}::int[]) returning 1)
    select count(*) as n from d`);
  const deletedTickets = await rows<{ status: string }>(
    tx,
    sql`delete from tickets where contact_id = ${contactId} returning status`,
  );

  await tx.delete(contacts).where(eq(contacts.id, contactId));

  const media = [...schedules, ...inGroups, ...conversation].flatMap((r) => (r.media_path ? [r.media_path] : []));
  const messageRows = [...inGroups, ...conversation];
  return {
    erased: {
      tickets: deletedTickets.length,
      activeTickets: deletedTickets.filter((t) => t.status === "pending" || t.status === "open").length,
      messages: messageRows.length,
      notes: messageRows.filter((m) => m.is_note).length,
      groupMessages: inGroups.length,
      mediaFiles: new Set(media).size,
      scheduledMessages: schedules.length,
      ratings,
      ...traces,
    },
    mediaPaths: [...new Set(media)],
    groupTicketIds: [...new Set(inGroups.map((m) => Number(m.ticket_id)))],
  };
}

/** A group's preview after some of its messages went: the latest that is left (never the erased text). */
export async function refreshGroupPreview(tx: Db, ticketId: number): Promise<void> {
  const [latest] = await tx
    .select({
      id: messages.id,
      body: messages.body,
      mediaName: messages.mediaName,
      mediaType: messages.mediaType,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.ticketId, ticketId),
        eq(messages.fromBot, false),
        eq(messages.isDeleted, false),
        eq(messages.isNote, false),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  await tx
    .update(tickets)
    .set({ lastMessage: latest ? previewOf(latest) : "" })
    .where(eq(tickets.id, ticketId));
}

/** A legal hold on the contact or on one of its tickets (issue 22 §1): an erasure waits for its release. */
export async function isUnderLegalHold(db: Db, contactId: number): Promise<boolean> {
  const found = await rows<{ x: number }>(
    db,
    sql`select 1 as x from legal_holds
        where contact_id = ${contactId} or ticket_id in (select id from tickets where contact_id = ${contactId}) limit 1`,
  );
  return found.length > 0;
}

/**
 * Queue, in the erasure's transaction, the files no remaining row names (another message or a
 * schedule could share one): the same durable queue as retention's (media_deletions), so a crash
 * after the commit or an unreachable bucket leaves them queued for the next sweep, never orphaned.
 */
export async function queueFileRemovals(tx: Db, paths: string[]): Promise<{ id: string; path: string }[]> {
  if (paths.length === 0) return [];
  return rows<{ id: string; path: string }>(
    tx,
    sql`insert into media_deletions (path)
        select p from unnest(${sql.param(paths)}::text[]) p
        where not exists (select 1 from messages where media_path = p)
          and not exists (select 1 from scheduled_messages where media_path = p)
        returning id, path`,
  );
}

export async function forgetFileRemovals(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.execute(sql`delete from media_deletions where id = any(${sql.param(ids)}::bigint[])`);
}
