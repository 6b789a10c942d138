import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from "@zapdesk/core";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { notificationPreferences, pushSubscriptions, tickets, userQueues, users } from "../../db/schema.js";

export type SubscriptionRow = typeof pushSubscriptions.$inferSelect;

export async function upsertSubscription(
  db: Db,
  input: { userId: number; endpoint: string; p256dh: string; auth: string },
): Promise<SubscriptionRow> {
  // One row per endpoint: the browser re-subscribing (or another user signing in on it) takes it over.
  const [row] = await db
    .insert(pushSubscriptions)
    .values(input)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: input.userId, p256dh: input.p256dh, auth: input.auth, failures: 0, updatedAt: sql`now()` },
    })
    .returning();
  return row;
}

export async function deleteSubscription(db: Db, userId: number, endpoint: string): Promise<boolean> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

export async function listSubscriptions(db: Db, userId: number) {
  return db
    .select({ id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(pushSubscriptions.id);
}

export async function dropSubscription(db: Db, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function markDelivery(db: Db, id: number, ok: boolean): Promise<void> {
  await db
    .update(pushSubscriptions)
    .set(ok ? { failures: 0, lastSuccessAt: sql`now()` } : { failures: sql`${pushSubscriptions.failures} + 1` })
    .where(eq(pushSubscriptions.id, id));
}

export interface PushRecipient {
  id: number;
  profile: string;
  queueIds: number[];
  subscriptions: { id: number; endpoint: string; p256dh: string; auth: string }[];
}

/** Users who have push on and at least one subscription, with their queues (for the access rule). */
export async function pushRecipients(db: Db): Promise<PushRecipient[]> {
  const rows = await db
    .select({
      id: users.id,
      profile: users.profile,
      subscriptionId: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .innerJoin(users, eq(users.id, pushSubscriptions.userId))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(sql`coalesce(${notificationPreferences.push}, true)`);
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((r) => r.id))];
  const queues = await db
    .select({ userId: userQueues.userId, queueId: userQueues.queueId })
    .from(userQueues)
    .where(inArray(userQueues.userId, ids));
  const byUser = new Map<number, PushRecipient>();
  for (const row of rows) {
    let recipient = byUser.get(row.id);
    if (!recipient) {
      recipient = { id: row.id, profile: row.profile, queueIds: [], subscriptions: [] };
      byUser.set(row.id, recipient);
    }
    recipient.subscriptions.push({ id: row.subscriptionId, endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth });
  }
  for (const q of queues) byUser.get(q.userId)?.queueIds.push(q.queueId);
  return [...byUser.values()];
}

export async function getPreferences(db: Db, userId: number): Promise<NotificationPreferences> {
  const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  return row ? { sound: row.sound, desktop: row.desktop, push: row.push } : { ...DEFAULT_NOTIFICATION_PREFERENCES };
}

export async function savePreferences(db: Db, userId: number, prefs: NotificationPreferences): Promise<NotificationPreferences> {
  const [row] = await db
    .insert(notificationPreferences)
    .values({ userId, ...prefs })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...prefs, updatedAt: sql`now()` } })
    .returning();
  return { sound: row.sound, desktop: row.desktop, push: row.push };
}

/** Who a ticket belongs to (the access rule's input). */
export async function ticketScope(db: Db, ticketId: number) {
  const [row] = await db
    .select({ userId: tickets.userId, queueId: tickets.queueId })
    .from(tickets)
    .where(eq(tickets.id, ticketId));
  return row;
}
