import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queues } from "../../db/schema.js";

export type QueueRow = typeof queues.$inferSelect;

export function listQueues(db: Db): Promise<QueueRow[]> {
  return db.select().from(queues).orderBy(asc(queues.name));
}

export async function findQueueById(db: Db, id: number): Promise<QueueRow | undefined> {
  const [row] = await db.select().from(queues).where(eq(queues.id, id));
  return row;
}

export async function findQueueByName(db: Db, name: string): Promise<QueueRow | undefined> {
  const [row] = await db.select().from(queues).where(sql`lower(${queues.name}) = ${name.toLowerCase()}`);
  return row;
}

export async function findQueueByColor(db: Db, color: string): Promise<QueueRow | undefined> {
  const [row] = await db.select().from(queues).where(sql`lower(${queues.color}) = ${color.toLowerCase()}`);
  return row;
}

/** The ids among `ids` that name an existing queue. */
export async function existingQueueIds(db: Db, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: queues.id }).from(queues).where(inArray(queues.id, ids));
  return rows.map((r) => r.id);
}

export async function insertQueue(
  db: Db,
  values: {
    name: string;
    color: string;
    greetingMessage: string;
    schedule?: QueueRow["schedule"];
    closingReason?: QueueRow["closingReason"];
  },
) {
  const [row] = await db.insert(queues).values(values).returning();
  return row;
}

export async function updateQueue(
  db: Db,
  id: number,
  values: Partial<Pick<QueueRow, "name" | "color" | "greetingMessage" | "schedule" | "closingReason">>,
) {
  const [row] = await db
    .update(queues)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(queues.id, id))
    .returning();
  return row as QueueRow | undefined;
}

export async function deleteQueue(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(queues).where(eq(queues.id, id)).returning({ id: queues.id });
  return rows.length > 0;
}
