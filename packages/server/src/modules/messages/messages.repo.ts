import { and, desc, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.js";
import { prepared, type Read, readOf } from "../../db/prepared.js";
import { contacts, messages, users } from "../../db/schema.js";
import { gateValues, type TicketReader, ticketReachableGate } from "../tickets/access.js";

/** Every column but the search vector: the database keeps it for ticket search, nobody reads it back. */
const { search: _search, ...messageColumns } = getTableColumns(messages);

export { messageColumns };
export type MessageRow = Omit<typeof messages.$inferSelect, "search">;
export type NewMessage = typeof messages.$inferInsert;

const quoted = alias(messages, "quoted");
const quotedContact = alias(contacts, "quoted_contact");
const contactLite = (table: typeof contacts | typeof quotedContact) => ({
  id: table.id,
  name: table.name,
  number: table.number,
  profilePicUrl: table.profilePicUrl,
});

export interface JoinedMessage {
  message: MessageRow;
  contact: { id: number; name: string; number: string; profilePicUrl: string } | null;
  user: { id: number; name: string } | null;
  quoted: Pick<MessageRow, "id" | "body" | "fromMe" | "mediaType" | "isDeleted"> | null;
  quotedContact: { id: number; name: string; number: string; profilePicUrl: string } | null;
  /** Who a private note mentions (issue 11); empty for every other message. */
  mentions?: { id: number; name: string }[];
}

function joined<E extends Record<string, SQL.Aliased | SQL> = Record<never, never>>(db: Db, extra?: E) {
  return db
    .select({
      ...(extra as E),
      message: messageColumns,
      contact: contactLite(contacts),
      user: { id: users.id, name: users.name },
      quoted: {
        id: quoted.id,
        body: quoted.body,
        fromMe: quoted.fromMe,
        mediaType: quoted.mediaType,
        isDeleted: quoted.isDeleted,
      },
      quotedContact: contactLite(quotedContact),
      mentions: sql<
        { id: number; name: string }[]
      >`case when ${messages.isNote} then (select coalesce(json_agg(json_build_object('id', mu.id, 'name', mu.name) order by nm.id), '[]'::json) from note_mentions nm join users mu on mu.id = nm.user_id where nm.message_id = ${messages.id}) else '[]'::json end`,
    })
    .from(messages)
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .leftJoin(users, eq(users.id, messages.userId))
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
    .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId));
}

/**
 * A chat's page, newest first from the index (ticket_id, created_at desc, id desc; the caller
 * reverses it), as a read that can ride with the ticket's (opening a chat in one round trip,
 * db/prepared.ts `readTogether`). Issue 24: the count rides on the page (an uncorrelated subquery
 * PostgreSQL runs once, an InitPlan); a page past the end has no row to carry it, and its `count` is
 * undefined (`countTicketMessages` asks).
 *
 * For a `reader` who is not an admin, the page is read only if the ticket is one the reader may
 * reach (tickets/access.ts `ticketReachableGate`, core's `canAccessTicket` as SQL), checked once
 * before any message is read. The ticket read beside it is checked again by `canAccessTicket` in the
 * service, so a message of a ticket out of reach neither leaves the database nor is read there.
 */
export function ticketMessagesRead(
  db: Db,
  ticketId: number,
  page: { limit: number; offset: number },
  reader: Omit<TicketReader, "hideChoosing">,
): Read<{ rows: JoinedMessage[]; count: number | undefined }> {
  const statement = reader.admin
    ? prepared(db, "messages_page", (db, name) => pageOf(db).prepare(name))
    : prepared(db, "messages_page_reader", (db, name) => pageOf(db, ticketReachableGate).prepare(name));
  const values = { ticketId, ...page, ...gateValues(reader) };
  return readOf(statement, values, (rows) => {
    if (rows.length) return { rows: rows.map(({ total: _total, ...row }) => row) as JoinedMessage[], count: rows[0]!.total };
    return { rows: [] as JoinedMessage[], count: page.offset === 0 ? 0 : undefined };
  });
}

/** The page's statement, with the reader's gate when it has one (`ticketMessagesRead`). */
function pageOf(db: Db, gate?: SQL) {
  const ticketId = sql.placeholder("ticketId");
  return joined(db, {
    total: sql<number>`(select count(*)::int from ${messages} counted where counted.ticket_id = ${ticketId})`,
  })
    .where(and(eq(messages.ticketId, ticketId), gate))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));
}

/** How many messages the ticket has (a chat's page past the end). */
export async function countTicketMessages(db: Db, ticketId: number): Promise<number> {
  const statement = prepared(db, "messages_count", (db, name) =>
    db
      .select({ value: sql<number>`count(*)::int` })
      .from(messages)
      .where(eq(messages.ticketId, sql.placeholder("ticketId")))
      .prepare(name),
  );
  const [total] = await statement.execute({ ticketId });
  return total!.value;
}

/**
 * How many messages of the ticket come after this one in the list order (its 0-based place from the
 * newest; undefined when the message is not the ticket's), as a read that can ride with the
 * ticket's (a chat opened on a message, `around`). With a `reader` who is not an admin, nothing is
 * counted of a ticket out of reach, as the page (`ticketMessagesRead`).
 */
export function newerMessagesRead(
  db: Db,
  ticketId: number,
  messageId: number,
  reader: Omit<TicketReader, "hideChoosing">,
): Read<number | undefined> {
  const build = (gate: SQL | undefined) => (db: Db, name: string) => {
    const target = alias(messages, "target");
    return db
      .select({ newer: sql<number>`count(${messages.id})::int` })
      .from(target)
      .leftJoin(
        messages,
        and(
          eq(messages.ticketId, target.ticketId),
          sql`(${messages.createdAt}, ${messages.id}) > (${target.createdAt}, ${target.id})`,
        ),
      )
      .where(and(eq(target.id, sql.placeholder("messageId")), eq(target.ticketId, sql.placeholder("ticketId")), gate))
      .groupBy(target.id)
      .prepare(name);
  };
  const statement = reader.admin
    ? prepared(db, "messages_newer", build(undefined))
    : prepared(db, "messages_newer_reader", build(ticketReachableGate));
  return readOf(statement, { ticketId, messageId, ...gateValues(reader) }, ([row]) => row?.newer);
}

export async function findJoinedMessage(db: Db, id: number): Promise<JoinedMessage | undefined> {
  const [row] = await joined(db).where(eq(messages.id, id));
  return row as JoinedMessage | undefined;
}

export async function findMessage(db: Db, id: number): Promise<MessageRow | undefined> {
  const [row] = await db.select(messageColumns).from(messages).where(eq(messages.id, id));
  return row;
}

export async function findMessageByWid(
  db: Db,
  whatsappId: number,
  wid: string,
  options: { lock?: boolean } = {},
): Promise<MessageRow | undefined> {
  const query = db
    .select(messageColumns)
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)));
  const [row] = options.lock ? await query.for("update") : await query;
  return row;
}

/** Idempotent insert: a redelivered WhatsApp message (same connection and wid) inserts nothing. */
export async function insertMessage(db: Db, values: NewMessage): Promise<MessageRow | undefined> {
  const [row] = await db
    .insert(messages)
    .values(values)
    .onConflictDoNothing({ target: [messages.whatsappId, messages.wid] })
    .returning(messageColumns);
  return row;
}

export async function updateMessage(
  db: Db,
  id: number,
  values: Partial<Omit<MessageRow, "id">>,
): Promise<MessageRow | undefined> {
  const [row] = await db
    .update(messages)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(messages.id, id))
    .returning(messageColumns);
  return row;
}

/**
 * Mark the customer's messages of a ticket read (opening the ticket); their wids oldest first, so
 * that the last one is the newest (the Cloud API's read receipt names one message, and all before
 * it count as read). UPDATE … RETURNING has no order of its own: a message that arrived late (an
 * older one redelivered, a backfill) would otherwise come last.
 */
export async function markTicketRead(db: Db, ticketId: number): Promise<string[]> {
  const rows = await db
    .update(messages)
    .set({ read: true })
    .where(and(eq(messages.ticketId, ticketId), eq(messages.read, false), eq(messages.fromMe, false)))
    .returning({ id: messages.id, wid: messages.wid, createdAt: messages.createdAt });
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  return rows.flatMap((r) => (r.wid ? [r.wid] : []));
}

/** Which of these stored media files a message refers to. */
export async function referencedMediaPaths(db: Db, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const rows = await db.select({ path: messages.mediaPath }).from(messages).where(inArray(messages.mediaPath, paths));
  return new Set(rows.flatMap((r) => (r.path ? [r.path] : [])));
}
