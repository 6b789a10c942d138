import { ACK_FAILED, type ScheduleStatus } from "@zapdesk/core";
import { and, count, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contacts, messages, scheduledMessages, tickets, users } from "../../db/schema.js";
import { ticketAccessWhere } from "../tickets/access.js";

export type ScheduleRow = typeof scheduledMessages.$inferSelect;

/**
 * What a schedule shows: a handed-over one whose message the outbox failed (ack -1) is `failed`,
 * with the message's reason; otherwise its own status and error.
 */
const effectiveStatus = sql<ScheduleStatus>`case when ${scheduledMessages.status} = 'sent' and ${messages.ack} = ${ACK_FAILED} then 'failed' else ${scheduledMessages.status} end`;
const effectiveError = sql<
  string | null
>`case when ${scheduledMessages.status} = 'sent' and ${messages.ack} = ${ACK_FAILED} then coalesce(${messages.errorTitle}, ${messages.errorCode}) else ${scheduledMessages.error} end`;

const joinedColumns = {
  schedule: scheduledMessages,
  status: effectiveStatus,
  error: effectiveError,
  contact: { id: contacts.id, name: contacts.name, number: contacts.number, profilePicUrl: contacts.profilePicUrl },
  userName: users.name,
};

export type JoinedSchedule = {
  schedule: ScheduleRow;
  status: ScheduleStatus;
  error: string | null;
  contact: { id: number; name: string; number: string; profilePicUrl: string };
  userName: string | null;
};

function joined(db: Db) {
  return db
    .select(joinedColumns)
    .from(scheduledMessages)
    .innerJoin(contacts, eq(contacts.id, scheduledMessages.contactId))
    .leftJoin(users, eq(users.id, scheduledMessages.userId))
    .leftJoin(messages, eq(messages.id, scheduledMessages.messageId))
    .leftJoin(tickets, eq(tickets.id, scheduledMessages.ticketId));
}

export interface ScheduleFilter {
  /** Agents: schedules of tickets they may reach, and their own not tied to a ticket. Admins: null (all). */
  actor: { id: number; queueIds: number[] } | null;
  status?: ScheduleStatus;
  userId?: number;
  ticketId?: number;
  contactId?: number;
}

function whereOf(filter: ScheduleFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.actor) {
    const { id, queueIds } = filter.actor;
    conditions.push(
      or(
        and(isNull(scheduledMessages.ticketId), eq(scheduledMessages.userId, id)),
        and(sql`${tickets.id} is not null`, ticketAccessWhere({ id, admin: false, queueIds })),
      ),
    );
  }
  if (filter.status) conditions.push(sql`${effectiveStatus} = ${filter.status}`);
  if (filter.userId) conditions.push(eq(scheduledMessages.userId, filter.userId));
  if (filter.ticketId) conditions.push(eq(scheduledMessages.ticketId, filter.ticketId));
  if (filter.contactId) conditions.push(eq(scheduledMessages.contactId, filter.contactId));
  return and(...conditions);
}

/** Pending ones first, the soonest on top; then the rest, the latest on top. */
export async function listSchedules(db: Db, filter: ScheduleFilter, page: { limit: number; offset: number }) {
  const where = whereOf(filter);
  const [rows, [total]] = await Promise.all([
    joined(db)
      .where(where)
      .orderBy(
        sql`case when ${scheduledMessages.status} = 'scheduled' then 0 else 1 end`,
        sql`case when ${scheduledMessages.status} = 'scheduled' then ${scheduledMessages.sendAt} end asc`,
        desc(scheduledMessages.sendAt),
        desc(scheduledMessages.id),
      )
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ value: count() })
      .from(scheduledMessages)
      .leftJoin(messages, eq(messages.id, scheduledMessages.messageId))
      .leftJoin(tickets, eq(tickets.id, scheduledMessages.ticketId))
      .where(where),
  ]);
  return { rows: rows as JoinedSchedule[], count: total.value };
}

export async function findJoinedSchedule(db: Db, id: number): Promise<JoinedSchedule | undefined> {
  const [row] = await joined(db).where(eq(scheduledMessages.id, id));
  return row as JoinedSchedule | undefined;
}

export async function findSchedule(db: Db, id: number): Promise<ScheduleRow | undefined> {
  const [row] = await db.select().from(scheduledMessages).where(eq(scheduledMessages.id, id));
  return row;
}

export async function findScheduleByMessage(db: Db, messageId: number): Promise<ScheduleRow | undefined> {
  const [row] = await db.select().from(scheduledMessages).where(eq(scheduledMessages.messageId, messageId));
  return row;
}

export async function insertSchedule(db: Db, values: typeof scheduledMessages.$inferInsert): Promise<ScheduleRow> {
  const [row] = await db.insert(scheduledMessages).values(values).returning();
  return row;
}

/** Changes a schedule only while it is still `scheduled` (the sweeper may have taken it meanwhile). */
export async function updatePending(
  db: Db,
  id: number,
  values: Partial<Omit<ScheduleRow, "id" | "createdAt">>,
): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .update(scheduledMessages)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.status, "scheduled")))
    .returning();
  return row;
}
