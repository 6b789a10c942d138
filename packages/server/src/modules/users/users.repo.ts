import { and, count, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { prepared } from "../../db/prepared.js";
import { queues, sessions, userQueues, users } from "../../db/schema.js";

export type UserRow = typeof users.$inferSelect;
export type QueueLite = { id: number; name: string; color: string };
export type UserWithQueues = UserRow & { queues: QueueLite[] };

/** The actor as every request sees it: loaded fresh so role and queue changes apply at once. */
export interface AuthUser {
  id: number;
  name: string;
  email: string;
  profile: string;
  queueIds: number[];
}

/** What a request knows of its user: the profile and the queues, read on every request. */
const authUserColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  profile: users.profile,
  queueIds: sql<number[]>`coalesce(array_agg(${userQueues.queueId}) filter (where ${userQueues.queueId} is not null), '{}')`,
};

/** Every authenticated request runs this: prepared once per database handle. */
export async function findAuthUser(db: Db, id: number): Promise<AuthUser | undefined> {
  const statement = prepared(db, "users_auth", (db, name) =>
    db
      .select(authUserColumns)
      .from(users)
      .leftJoin(userQueues, eq(userQueues.userId, users.id))
      .where(eq(users.id, sql.placeholder("id")))
      .groupBy(users.id)
      .prepare(name),
  );
  const [row] = await statement.execute({ id });
  return row;
}

/**
 * The user of a request, if its session (issue 22 §5) still exists: one indexed lookup joined to
 * the user's, so an ended session is refused at once for the price of the query every request made.
 */
export async function findSessionUser(db: Db, id: number, sessionId: string): Promise<AuthUser | undefined> {
  const statement = prepared(db, "users_auth_session", (db, name) =>
    db
      .select(authUserColumns)
      .from(users)
      .innerJoin(sessions, and(eq(sessions.userId, users.id), eq(sessions.id, sql.placeholder("sid"))))
      .leftJoin(userQueues, eq(userQueues.userId, users.id))
      .where(eq(users.id, sql.placeholder("id")))
      .groupBy(users.id)
      .prepare(name),
  );
  const [row] = await statement.execute({ id, sid: sessionId });
  return row;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

async function attachQueues(db: Db, rows: UserRow[]): Promise<UserWithQueues[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(
      inArray(
        userQueues.userId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(queues.name);
  return rows.map((row) => ({
    ...row,
    queues: links.filter((l) => l.userId === row.id).map(({ id, name, color }) => ({ id, name, color })),
  }));
}

export async function findUserById(db: Db, id: number): Promise<UserWithQueues | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id));
  const [user] = await attachQueues(db, rows);
  return user;
}

export async function listUsers(
  db: Db,
  options: { search: string; limit: number; offset: number },
): Promise<{ rows: UserWithQueues[]; count: number }> {
  const pattern = `%${escapeLike(options.search)}%`;
  const where = options.search ? or(ilike(users.name, pattern), ilike(users.email, pattern)) : undefined;
  const [rows, [total]] = await Promise.all([
    db.select().from(users).where(where).orderBy(users.name, users.id).limit(options.limit).offset(options.offset),
    db.select({ value: count() }).from(users).where(where),
  ]);
  return { rows: await attachQueues(db, rows), count: total.value };
}

export async function insertUser(
  db: Db,
  values: { name: string; email: string; passwordHash: string; profile: string },
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row;
}

export async function updateUser(
  db: Db,
  id: number,
  values: Partial<Pick<UserRow, "name" | "email" | "passwordHash" | "profile">>,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function setUserQueues(db: Db, userId: number, queueIds: number[]): Promise<void> {
  await db.delete(userQueues).where(eq(userQueues.userId, userId));
  if (queueIds.length > 0) await db.insert(userQueues).values(queueIds.map((queueId) => ({ userId, queueId })));
}

export async function deleteUser(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

/** Locks the admin rows so two concurrent demotions cannot remove the last admin. */
export async function lockAdminIds(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.profile}) = 'admin'`))
    .for("update");
  return rows.map((r) => r.id);
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
