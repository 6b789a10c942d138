import { type AgentLoad, isAdmin, type PresenceStatus, type UserPresence } from "@zapdesk/core";
import { asc, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { tickets, userQueues, users } from "../../db/schema.js";
import type { AuthUser } from "../users/users.repo.js";

export interface PresenceServiceDeps {
  db: Db;
  /** Every connected user's presence, across processes (the realtime layer's `presence`). */
  presence: () => Promise<Map<number, PresenceStatus>>;
}

/** Issue 13: who is online, away or offline, with how many tickets each has open. */
export function createPresenceService(deps: PresenceServiceDeps) {
  const { db } = deps;

  async function openByUser(): Promise<Map<number, number>> {
    const rows = await db
      .select({ userId: tickets.userId, count: sql<number>`count(*)::int` })
      .from(tickets)
      .where(sql`${tickets.status} = 'open' and ${isNotNull(tickets.userId)}`)
      .groupBy(tickets.userId);
    return new Map(rows.map((r) => [r.userId as number, r.count]));
  }

  async function everyone(): Promise<(UserPresence & { profile: string })[]> {
    const [rows, statuses, open, memberships] = await Promise.all([
      db.select({ id: users.id, name: users.name, profile: users.profile }).from(users).orderBy(asc(users.name), asc(users.id)),
      deps.presence(),
      openByUser(),
      db.select().from(userQueues).orderBy(asc(userQueues.queueId)),
    ]);
    const queuesOf = new Map<number, number[]>();
    for (const m of memberships) queuesOf.set(m.userId, [...(queuesOf.get(m.userId) ?? []), m.queueId]);
    return rows.map((u) => ({
      userId: u.id,
      name: u.name,
      profile: u.profile,
      status: statuses.get(u.id) ?? "offline",
      openTickets: open.get(u.id) ?? 0,
      queueIds: queuesOf.get(u.id) ?? [],
    }));
  }

  return {
    /** Every user (any signed-in user may see who is around). */
    async list(): Promise<UserPresence[]> {
      return (await everyone()).map(({ profile: _profile, ...rest }) => rest);
    },

    /**
     * The dashboard's agents card: presence, open tickets and the pending tickets of each agent's
     * queues. Admins see everyone; an agent sees themself and the colleagues sharing a queue.
     */
    async agents(actor: AuthUser): Promise<AgentLoad[]> {
      const [all, pending] = await Promise.all([
        everyone(),
        db
          .select({ queueId: tickets.queueId, count: sql<number>`count(*)::int` })
          .from(tickets)
          .where(sql`${tickets.status} = 'pending' and ${isNotNull(tickets.queueId)}`)
          .groupBy(tickets.queueId),
      ]);
      const pendingOf = new Map(pending.map((p) => [p.queueId as number, p.count]));
      const mine = new Set(actor.queueIds);
      return all
        .map((u) => ({ ...u, pendingInQueues: u.queueIds.reduce((sum, q) => sum + (pendingOf.get(q) ?? 0), 0) }))
        .filter((u) => isAdmin(actor) || u.userId === actor.id || u.queueIds.some((q) => mine.has(q)));
    },
  };
}

export type PresenceService = ReturnType<typeof createPresenceService>;
