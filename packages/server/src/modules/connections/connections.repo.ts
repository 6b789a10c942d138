import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { namedStatement, runNamed } from "../../db/prepared.js";
import { inboundEvents, queues, whatsappQueues, whatsapps } from "../../db/schema.js";

export type ConnectionRow = typeof whatsapps.$inferSelect;
export type ConnectionWithQueues = ConnectionRow & {
  queues: { id: number; name: string; color: string; greetingMessage: string }[];
};

async function attachQueues(db: Db, rows: ConnectionRow[]): Promise<ConnectionWithQueues[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select({
      whatsappId: whatsappQueues.whatsappId,
      id: queues.id,
      name: queues.name,
      color: queues.color,
      greetingMessage: queues.greetingMessage,
    })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(
      inArray(
        whatsappQueues.whatsappId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(queues.id));
  return rows.map((row) => ({
    ...row,
    queues: links.filter((l) => l.whatsappId === row.id).map(({ whatsappId: _w, ...queue }) => queue),
  }));
}

export async function listConnections(db: Db): Promise<ConnectionWithQueues[]> {
  return attachQueues(db, await db.select().from(whatsapps).orderBy(asc(whatsapps.id)));
}

export async function findConnection(db: Db, id: number): Promise<ConnectionWithQueues | undefined> {
  const [row] = await attachQueues(db, await db.select().from(whatsapps).where(eq(whatsapps.id, id)));
  return row;
}

export async function findDefaultConnection(db: Db): Promise<ConnectionRow | undefined> {
  const [row] = await db.select().from(whatsapps).where(eq(whatsapps.isDefault, true));
  return row;
}

export async function findConnectionByName(db: Db, name: string): Promise<ConnectionRow | undefined> {
  const [row] = await db.select().from(whatsapps).where(sql`lower(${whatsapps.name}) = ${name.toLowerCase()}`);
  return row;
}

export async function countConnections(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(whatsapps);
  return row.n;
}

type Editable = Pick<
  ConnectionRow,
  | "name"
  | "greetingMessage"
  | "farewellMessage"
  | "ratingMessage"
  | "ratingTimeoutMinutes"
  | "isDefault"
  | "status"
  | "qrcode"
  | "pairingCode"
  | "pairingPhone"
  | "retries"
  | "statusReason"
  | "sendMinGapMs"
  | "sendJitterMs"
  | "cloudPhoneNumberId"
  | "cloudBusinessAccountId"
  | "cloudAccessToken"
  | "cloudAppSecret"
  | "cloudVerifyToken"
  | "lastError"
  | "lastErrorAt"
  | "lastEventAt"
>;

export async function insertConnection(
  db: Db,
  values: Pick<ConnectionRow, "name" | "provider" | "greetingMessage" | "farewellMessage" | "isDefault"> & Partial<Editable>,
): Promise<ConnectionRow> {
  const [row] = await db.insert(whatsapps).values(values).returning();
  return row;
}

export async function updateConnection(db: Db, id: number, values: Partial<Editable>): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .update(whatsapps)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(whatsapps.id, id))
    .returning();
  return row;
}

/** Clear the default flag everywhere but on `exceptId` (one default at a time, a unique index backs it). */
export async function clearOtherDefaults(db: Db, exceptId: number): Promise<void> {
  await db
    .update(whatsapps)
    .set({ isDefault: false })
    .where(and(eq(whatsapps.isDefault, true), ne(whatsapps.id, exceptId)));
}

export async function setConnectionQueues(db: Db, whatsappId: number, queueIds: number[]): Promise<void> {
  await db.delete(whatsappQueues).where(eq(whatsappQueues.whatsappId, whatsappId));
  if (queueIds.length) await db.insert(whatsappQueues).values(queueIds.map((queueId) => ({ whatsappId, queueId })));
}

export async function deleteConnection(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(whatsapps).where(eq(whatsapps.id, id)).returning({ id: whatsapps.id });
  return rows.length > 0;
}

/** The oldest remaining connection, promoted when the default one is deleted. */
export async function oldestConnection(db: Db): Promise<ConnectionRow | undefined> {
  const [row] = await db.select().from(whatsapps).orderBy(asc(whatsapps.id)).limit(1);
  return row;
}

/** A reconnect, counted per (UTC) day for the health panel. */
export async function countReconnect(db: Db, id: number, day: string): Promise<void> {
  await db
    .update(whatsapps)
    .set({
      reconnectsToday: sql`case when ${whatsapps.reconnectsDay} = ${day} then ${whatsapps.reconnectsToday} + 1 else 1 end`,
      reconnectsDay: day,
    })
    .where(eq(whatsapps.id, id));
}

const lastEvent = namedStatement(
  "connection_last_event",
  sql`update ${whatsapps} set "last_event_at" = ${sql.placeholder("at")}::timestamptz where "id" = ${sql.placeholder("id")}`,
);

/**
 * Something arrived on the connection (health), without touching updatedAt. On the inbound path
 * every few seconds, so sent by name like the messages' statements (issue 24).
 */
export async function touchLastEvent(db: Db, id: number, at: Date): Promise<void> {
  await runNamed(db, lastEvent, { id, at: at.toISOString() });
}

/** Pending inbound events per connection (health). */
export async function inboundLagByConnection(db: Db): Promise<Map<number, { pending: number; oldestAt: Date | null }>> {
  const rows = await db
    .select({
      whatsappId: inboundEvents.whatsappId,
      pending: sql<number>`count(*)::int`,
      oldestAt: sql<string | null>`min(${inboundEvents.receivedAt})`,
    })
    .from(inboundEvents)
    .where(eq(inboundEvents.status, "pending"))
    .groupBy(inboundEvents.whatsappId);
  return new Map(rows.map((r) => [r.whatsappId, { pending: r.pending, oldestAt: r.oldestAt ? new Date(r.oldestAt) : null }]));
}
