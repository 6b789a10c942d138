import { and, count, desc, eq, ilike, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.js";
import { contacts, messages, noteMentions, tickets, userQueues, users } from "../../db/schema.js";
import { ticketAccessWhere } from "../tickets/access.js";
import { escapeLike } from "../users/users.repo.js";

/** A user as the ticket access rule needs them (design §4). */
export interface Colleague {
  id: number;
  name: string;
  profile: string;
  queueIds: number[];
}

function colleagues(db: Db) {
  return db
    .select({
      id: users.id,
      name: users.name,
      profile: users.profile,
      queueIds: sql<number[]>`coalesce(array_agg(${userQueues.queueId}) filter (where ${userQueues.queueId} is not null), '{}')`,
    })
    .from(users)
    .leftJoin(userQueues, eq(userQueues.userId, users.id))
    .groupBy(users.id);
}

export async function findColleagues(db: Db, ids: number[]): Promise<Colleague[]> {
  if (ids.length === 0) return [];
  return colleagues(db).where(inArray(users.id, ids));
}

/** Users whose name matches, alphabetically; the caller keeps those who may see the ticket. */
export async function searchColleagues(db: Db, search: string, limit: number): Promise<Colleague[]> {
  const query = colleagues(db);
  const filtered = search ? query.where(ilike(users.name, `%${escapeLike(search)}%`)) : query;
  return filtered.orderBy(users.name, users.id).limit(limit);
}

export async function insertMentions(db: Db, rows: { messageId: number; userId: number }[]) {
  if (rows.length === 0) return [];
  return db.insert(noteMentions).values(rows).onConflictDoNothing().returning();
}

const author = alias(users, "author");

/** The user's newest mentions on notes still there, on tickets they may still reach. */
export async function listMentions(db: Db, actor: { id: number; admin: boolean; queueIds: number[] }, limit: number) {
  const where = and(eq(noteMentions.userId, actor.id), eq(messages.isDeleted, false), ticketAccessWhere(actor));
  const rows = await db
    .select({
      id: noteMentions.id,
      messageId: noteMentions.messageId,
      ticketId: messages.ticketId,
      readAt: noteMentions.readAt,
      createdAt: noteMentions.createdAt,
      body: messages.body,
      authorId: author.id,
      authorName: author.name,
      contactId: contacts.id,
      contactName: contacts.name,
    })
    .from(noteMentions)
    .innerJoin(messages, eq(messages.id, noteMentions.messageId))
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(author, eq(author.id, messages.userId))
    .where(where)
    .orderBy(desc(noteMentions.id))
    .limit(limit);
  const [unread] = await db
    .select({ n: count() })
    .from(noteMentions)
    .innerJoin(messages, eq(messages.id, noteMentions.messageId))
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .where(and(where, isNull(noteMentions.readAt)));
  return { rows, unreadCount: unread.n };
}

export type MentionRow = Awaited<ReturnType<typeof listMentions>>["rows"][number];

export async function markMentionRead(db: Db, userId: number, id: number, at: Date) {
  const [row] = await db
    .update(noteMentions)
    .set({ readAt: sql`coalesce(${noteMentions.readAt}, ${at})` })
    .where(and(eq(noteMentions.id, id), eq(noteMentions.userId, userId)))
    .returning({ id: noteMentions.id });
  return row;
}

/** Every unread mention of the user (optionally on one ticket) becomes read. */
export async function markMentionsRead(db: Db, userId: number, at: Date, ticketId?: number) {
  const rows = await db
    .update(noteMentions)
    .set({ readAt: at })
    .where(
      and(
        eq(noteMentions.userId, userId),
        isNull(noteMentions.readAt),
        ticketId === undefined
          ? undefined
          : inArray(noteMentions.messageId, db.select({ id: messages.id }).from(messages).where(eq(messages.ticketId, ticketId))),
      ),
    )
    .returning({ id: noteMentions.id });
  return rows.length;
}
