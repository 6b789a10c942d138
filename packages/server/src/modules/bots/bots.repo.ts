import { listLeavesOutBotHeld } from "@zapdesk/core";
import { and, asc, eq, getTableColumns, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { botJobs, botSessions, queueBots, tickets } from "../../db/schema.js";

export type BotConfigRow = typeof queueBots.$inferSelect;
export type BotSessionRow = typeof botSessions.$inferSelect;
export type BotJobRow = typeof botJobs.$inferSelect;

export async function findBot(db: Db, queueId: number): Promise<BotConfigRow | undefined> {
  const [row] = await db.select().from(queueBots).where(eq(queueBots.queueId, queueId));
  return row;
}

export async function saveBot(db: Db, values: typeof queueBots.$inferInsert): Promise<BotConfigRow> {
  const { queueId: _, createdAt: __, ...set } = values;
  const [row] = await db
    .insert(queueBots)
    .values(values)
    .onConflictDoUpdate({ target: queueBots.queueId, set: { ...set, updatedAt: new Date() } })
    .returning();
  return row;
}

export async function deleteBot(db: Db, queueId: number): Promise<boolean> {
  const rows = await db.delete(queueBots).where(eq(queueBots.queueId, queueId)).returning({ queueId: queueBots.queueId });
  return rows.length > 0;
}

export async function findSession(db: Db, ticketId: number, lock = false): Promise<BotSessionRow | undefined> {
  const query = db.select().from(botSessions).where(eq(botSessions.ticketId, ticketId));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/**
 * Held by its queue's bot (a session row): one index probe, read with the ticket wherever a ticket is
 * presented (tickets.repo.ts's joined read, the inbound batch), so its `botHeld` costs no statement.
 */
export const botHeld = sql<boolean>`exists (select 1 from ${botSessions} where ${botSessions.ticketId} = ${tickets.id})`;

/** Not held by a bot: for the waiting lists that hand tickets to agents (auto-assign, owners, agents' lists). */
export const notBotHeld = sql`not ${botHeld}`;

/**
 * The ticket lists' part of it (ticket-list.repo.ts): core's `listLeavesOutBotHeld`, the rule the web's
 * live lists ask of each ticket's `botHeld` (bot-held-agree.test.ts checks the two agree). Agents'
 * waiting lists leave held tickets out; admins see them, to take over. A bot holds waiting tickets
 * only, so the open and closed lists skip the check: on the open inbox it turned the count's
 * index-only scan into a heap scan (1.2 -> 17.8 ms at scale 1). The answer depends on the list's
 * status, a parameter of the lists' prepared statements, so it is part of their shape (listShape).
 */
export function leaveOutBotHeld(viewer: { admin: boolean }, list: { status?: string; search?: string }): SQL | undefined {
  return listLeavesOutBotHeld(viewer, list) ? notBotHeld : undefined;
}

/**
 * Due jobs, leased: the oldest of each ticket only (a ticket's messages reach the bot in order), with
 * SKIP LOCKED so processes share the work and none runs a job twice at once.
 */
export async function claimJobs(db: Db, now: Date, limit: number, leaseMs: number): Promise<BotJobRow[]> {
  const until = new Date(now.getTime() + leaseMs);
  const result = await db.execute(sql`
    update ${botJobs} set locked_until = ${until.toISOString()}::timestamptz, attempts = attempts + 1
    where id in (
      select j.id from ${botJobs} j
      where (j.locked_until is null or j.locked_until < ${now.toISOString()}::timestamptz)
        and not exists (select 1 from ${botJobs} e where e.ticket_id = j.ticket_id and e.id < j.id)
      order by j.id limit ${limit} for update skip locked)
    returning id`);
  const ids = (result as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
  if (ids.length === 0) return [];
  return db.select().from(botJobs).where(inArray(botJobs.id, ids)).orderBy(botJobs.id);
}

/** The job done, in the transaction that stores its outcome; false when the lease was lost (someone else has it). */
export async function finishJob(tx: Db, job: BotJobRow): Promise<boolean> {
  if (!job.lockedUntil) return false;
  const rows = await tx
    .delete(botJobs)
    .where(and(eq(botJobs.id, job.id), eq(botJobs.lockedUntil, job.lockedUntil)))
    .returning({ id: botJobs.id });
  return rows.length > 0;
}

/** Sessions quiet for longer than their queue's bot allows. */
export async function idleSessions(db: Db, now: Date, limit: number): Promise<BotSessionRow[]> {
  return db
    .select(getTableColumns(botSessions))
    .from(botSessions)
    .innerJoin(queueBots, eq(queueBots.queueId, botSessions.queueId))
    .where(
      lt(botSessions.lastActivityAt, sql`${now.toISOString()}::timestamptz - make_interval(mins => ${queueBots.timeoutMinutes})`),
    )
    .orderBy(asc(botSessions.lastActivityAt))
    .limit(limit);
}

/** End a session (and drop its waiting jobs: their messages stay on the ticket for the agents). */
export async function endSession(tx: Db, ticketId: number, lastActivityAt?: Date): Promise<BotSessionRow | undefined> {
  const where = lastActivityAt
    ? and(eq(botSessions.ticketId, ticketId), eq(botSessions.lastActivityAt, lastActivityAt))
    : eq(botSessions.ticketId, ticketId);
  const [row] = await tx.delete(botSessions).where(where).returning();
  if (row) await tx.delete(botJobs).where(eq(botJobs.ticketId, ticketId));
  return row;
}
