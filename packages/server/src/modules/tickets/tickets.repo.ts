import { and, desc, eq, gte, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { prepared, type Read, readOf } from "../../db/prepared.js";
import { closingReasons, contacts, queues, tickets, users, whatsapps } from "../../db/schema.js";
import { botHeld } from "../bots/bots.repo.js";
import { ticketTagsJson } from "../tags/tags.repo.js";
import { withTicketTags } from "./ticket-tags.js";

export type TicketRow = typeof tickets.$inferSelect;

const joinedColumns = {
  ticket: tickets,
  contact: {
    id: contacts.id,
    name: contacts.name,
    number: contacts.number,
    profilePicUrl: contacts.profilePicUrl,
    ownerId: contacts.ownerUserId,
  },
  queue: { id: queues.id, name: queues.name, color: queues.color },
  user: { id: users.id, name: users.name },
  whatsapp: { id: whatsapps.id, name: whatsapps.name, provider: whatsapps.provider },
  closingReason: { id: closingReasons.id, name: closingReasons.name, archived: closingReasons.archived },
  botHeld,
};

export interface JoinedTicket {
  ticket: TicketRow;
  /** Search results only: the newest message of the ticket matching the words (null: the contact matched). */
  matchedMessageId?: number | null;
  /** `ownerId` (issue 23 §5): read by the joined queries; the inbound batch leaves it out. */
  contact: { id: number; name: string; number: string; profilePicUrl: string; ownerId?: number | null };
  queue: { id: number; name: string; color: string } | null;
  user: { id: number; name: string } | null;
  whatsapp: { id: number; name: string; provider: string } | null;
  /** Issue 23 §6: the reason of the ticket's last close. */
  closingReason: { id: number; name: string; archived: boolean } | null;
  /** Issue 11 (ticket-tags.ts): loaded for a set of rows in one query. */
  tags: { id: number; name: string; color: string }[];
  /** Issue 23 §4: a queue's bot holds the ticket (a `bot_sessions` row). */
  botHeld: boolean;
}

/**
 * Tickets with their contact, queue, user and connection; `search`: a search's count and matched
 * message beside them. `db` may be a `db.with(…)` builder (the search's page).
 */
export function joined<S extends Record<string, SQL | SQL.Aliased> = Record<never, never>>(db: Pick<Db, "select">, search?: S) {
  return db
    .select({ ...joinedColumns, ...(search as S) })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .leftJoin(closingReasons, eq(closingReasons.id, tickets.closingReasonId));
}

export async function findJoinedTicket(db: Db, id: number): Promise<JoinedTicket | undefined> {
  const [row] = await joined(db).where(eq(tickets.id, id));
  return row && (await withTicketTags(db, [row]))[0];
}

/**
 * Issue 24: one ticket, joined and with its tags, in one prepared statement, as a read that can ride
 * with another (opening a chat, a ticket's GET: db/prepared.ts `readTogether`); the service checks
 * access on it (`presentReachable`). Before, that was a plain read, a joined read and a tags read.
 */
export function presentableTicketRead(db: Db, id: number): Read<JoinedTicket | undefined> {
  const statement = prepared(db, "ticket_presentable", (db, name) =>
    joined(db, { tags: ticketTagsJson(tickets.id) })
      .where(eq(tickets.id, sql.placeholder("id")))
      .prepare(name),
  );
  return readOf(statement, { id }, ([row]) => row as JoinedTicket | undefined);
}

/** The first ticket matching `where`, joined (issue 13: the next ticket, chosen by a subquery). */
export async function findJoinedTicketWhere(db: Db, where: SQL): Promise<JoinedTicket | undefined> {
  const [row] = await joined(db).where(where).limit(1);
  return row && (await withTicketTags(db, [row]))[0];
}

export async function findTicket(db: Db, id: number, options: { lock?: boolean } = {}): Promise<TicketRow | undefined> {
  const query = db.select().from(tickets).where(eq(tickets.id, id));
  const [row] = options.lock ? await query.for("update") : await query;
  return row;
}

export async function findActiveTicket(db: Db, contactId: number, whatsappId: number): Promise<TicketRow | undefined> {
  const [row] = await db
    .select()
    .from(tickets)
    .where(
      and(eq(tickets.contactId, contactId), eq(tickets.whatsappId, whatsappId), inArray(tickets.status, ["pending", "open"])),
    )
    .for("update");
  return row;
}

/** The contact's most recent ticket on this connection, if it moved after `since`. */
export async function findRecentTicket(db: Db, contactId: number, whatsappId: number, since: Date) {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.contactId, contactId), eq(tickets.whatsappId, whatsappId), gte(tickets.updatedAt, since)))
    .orderBy(desc(tickets.updatedAt))
    .limit(1)
    .for("update");
  return row as TicketRow | undefined;
}

/** The contact's latest ticket on this connection, whatever its status or age. */
export async function findLatestTicket(db: Db, contactId: number, whatsappId: number) {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.contactId, contactId), eq(tickets.whatsappId, whatsappId)))
    .orderBy(desc(tickets.updatedAt))
    .limit(1)
    .for("update");
  return row as TicketRow | undefined;
}

/** When the customer last wrote on this connection, across their tickets (the Cloud API window runs from it). */
export async function lastInboundAt(db: Db, contactId: number, whatsappId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | null>`max(${tickets.lastInboundAt})` })
    .from(tickets)
    .where(and(eq(tickets.contactId, contactId), eq(tickets.whatsappId, whatsappId)));
  return row?.at ? new Date(row.at) : null;
}

/**
 * Insert a ticket unless the contact already has an active one on this connection:
 * the partial unique index decides, so concurrent first messages cannot make two.
 */
export async function insertTicketIfNoneActive(
  db: Db,
  values: Pick<TicketRow, "contactId" | "whatsappId" | "status" | "isGroup"> &
    Partial<Pick<TicketRow, "userId" | "queueId" | "lastInboundAt">>,
): Promise<TicketRow | undefined> {
  const [row] = await db
    .insert(tickets)
    .values(values)
    .onConflictDoNothing({
      target: [tickets.contactId, tickets.whatsappId],
      where: sql`status in ('pending', 'open')`,
    })
    .returning();
  return row;
}

export async function updateTicket(
  db: Db,
  id: number,
  values: Partial<Omit<TicketRow, "id" | "createdAt">>,
): Promise<TicketRow | undefined> {
  const [row] = await db
    .update(tickets)
    .set({ updatedAt: new Date(), ...values })
    .where(eq(tickets.id, id))
    .returning();
  return row;
}

export async function deleteTicket(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(tickets).where(eq(tickets.id, id)).returning({ id: tickets.id });
  return rows.length > 0;
}

/** Tickets of a deleted agent go back to the queue instead of disappearing with them. */
export async function releaseUserTickets(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .update(tickets)
    .set({ status: "pending", userId: null, updatedAt: new Date() })
    .where(and(eq(tickets.userId, userId), eq(tickets.status, "open")))
    .returning({ id: tickets.id });
  return rows.map((r) => r.id);
}
