import { type Actor, can, type PresenceStatus, type RoutingSettings } from "@zapdesk/core";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { queues, routingQueues, routingUsers, tickets, userQueues, users } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import { notBotHeld } from "../bots/bots.repo.js";
import { ownedTicketsWaiting } from "../contact-owner/contact-owner.js";
import { routeToOwners } from "../contact-owner/owner-routing.js";

/** Every assignment, on every process, takes this transaction lock: capacity is never exceeded. */
const ASSIGN_LOCK = 0x7a_64_13;
/** How many waiting tickets one pass assigns per queue at most. */
const BATCH = 200;
/** How often the sweep runs (new tickets, agents coming online, capacity freed). */
export const AUTO_ASSIGN_POLL_MS = 2000;

export interface AutoAssignDeps {
  db: Db;
  /** Presence across processes: only online agents receive tickets. */
  presence: () => Promise<Map<number, PresenceStatus>>;
  /** Publish the ticket after the commit (its assignee hears of it through their room). */
  announce: (ticketId: number) => Promise<void>;
  /** Tell the assignee (chime, browser notification, push) after the commit. */
  notifyAssignee?: (ticketId: number, userId: number) => Promise<void>;
  logger: FastifyBaseLogger;
  pollMs?: number;
  /** The injected clock (tests): assignments stamp the ticket's updatedAt with it. */
  clock?: Clock;
}

/** The next agent after `last` in id order (wrapping), under capacity; undefined if none. */
export function nextAgent(
  agents: number[],
  last: number | null,
  load: Map<number, number>,
  capacity: Map<number, number | null>,
): number | undefined {
  if (!agents.length) return undefined;
  const sorted = [...agents].sort((a, b) => a - b);
  const start = last === null ? 0 : sorted.findIndex((id) => id > last);
  for (let i = 0; i < sorted.length; i++) {
    const id = sorted[((start === -1 ? 0 : start) + i) % sorted.length];
    const cap = capacity.get(id) ?? null;
    if (cap === null || (load.get(id) ?? 0) < cap) return id;
  }
  return undefined;
}

/**
 * Issue 13: automatic assignment. A queue with `autoAssign` gives its waiting tickets without an
 * agent (oldest first) round-robin to its agents who are online and under their capacity; the
 * ticket becomes open (in the agent's "Atendendo", like Chatwoot's assignment). With no such agent
 * it waits, and the next pass assigns it once one comes online or frees capacity.
 */
export function createAutoAssigner(deps: AutoAssignDeps) {
  const clock = deps.clock ?? systemClock;
  const { db } = deps;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> | undefined;

  async function pass(): Promise<{ ticketId: number; userId: number }[]> {
    const enabled = await db.select().from(routingQueues).where(eq(routingQueues.autoAssign, true));
    // Issue 23 §5: owned contacts' waiting tickets go to their owners first, whatever the queue's setting.
    if (!enabled.length && !(await ownedTicketsWaiting(db))) return [];
    const statuses = await deps.presence();
    const online = [...statuses].filter(([, s]) => s === "online").map(([id]) => id);
    if (!online.length) return [];
    const assigned = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ASSIGN_LOCK})`);
      const made: { ticketId: number; userId: number }[] = [];
      const loads = await tx
        .select({ userId: tickets.userId, count: sql<number>`count(*)::int` })
        .from(tickets)
        .where(and(eq(tickets.status, "open"), inArray(tickets.userId, online)))
        .groupBy(tickets.userId);
      const load = new Map(loads.map((l) => [l.userId as number, l.count]));
      const caps = await tx.select().from(routingUsers).where(inArray(routingUsers.userId, online));
      const capacity = new Map(caps.map((c) => [c.userId, c.maxOpenTickets]));
      made.push(...(await routeToOwners(tx, online, load, capacity, clock.now())));
      const pointers = await tx.select().from(routingQueues).where(eq(routingQueues.autoAssign, true));
      for (const queue of pointers) {
        const members = await tx
          .select({ userId: userQueues.userId })
          .from(userQueues)
          .where(and(eq(userQueues.queueId, queue.queueId), inArray(userQueues.userId, online)));
        const agents = members.map((m) => m.userId);
        if (!agents.length) continue;
        const waiting = await tx
          .select({ id: tickets.id })
          .from(tickets)
          .where(and(eq(tickets.queueId, queue.queueId), eq(tickets.status, "pending"), isNull(tickets.userId), notBotHeld))
          .orderBy(asc(tickets.createdAt), asc(tickets.id))
          .limit(BATCH)
          .for("update");
        let last = queue.lastAssignedUserId;
        for (const ticket of waiting) {
          const agent = nextAgent(agents, last, load, capacity);
          if (agent === undefined) break;
          await tx
            .update(tickets)
            .set({ status: "open", userId: agent, updatedAt: clock.now() })
            .where(eq(tickets.id, ticket.id));
          load.set(agent, (load.get(agent) ?? 0) + 1);
          last = agent;
          made.push({ ticketId: ticket.id, userId: agent });
        }
        if (last !== queue.lastAssignedUserId)
          await tx
            .update(routingQueues)
            .set({ lastAssignedUserId: last, updatedAt: clock.now() })
            .where(eq(routingQueues.queueId, queue.queueId));
      }
      return made;
    });
    for (const { ticketId, userId } of assigned) {
      await deps.announce(ticketId).catch((error) => deps.logger.warn({ err: error, ticketId }, "assignment not announced"));
      await deps
        .notifyAssignee?.(ticketId, userId)
        .catch((error) => deps.logger.warn({ err: error, ticketId }, "assignee not notified"));
    }
    return assigned;
  }

  /** One pass at a time per process (the lock orders passes across processes). */
  function sweep() {
    const next = (running ?? Promise.resolve()).catch(() => undefined).then(pass);
    running = next;
    return next;
  }

  return {
    sweep,
    start() {
      timer = setInterval(() => {
        sweep().catch((error) => deps.logger.warn({ err: error }, "automatic assignment failed"));
      }, deps.pollMs ?? AUTO_ASSIGN_POLL_MS);
      timer.unref();
    },
    /** Stops the timer and lets a pass under way finish, so it never outlives the app's clients. */
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },

    async settings(actor: Actor): Promise<RoutingSettings> {
      if (!can(actor, "routing:manage")) throw new AppError("ERR_NO_PERMISSION");
      const [q, u] = await Promise.all([db.select().from(routingQueues), db.select().from(routingUsers)]);
      return {
        queues: q.map((r) => ({ queueId: r.queueId, autoAssign: r.autoAssign })),
        users: u.map((r) => ({ userId: r.userId, maxOpenTickets: r.maxOpenTickets })),
      };
    },

    async setQueue(actor: Actor, queueId: number, autoAssign: boolean) {
      if (!can(actor, "routing:manage")) throw new AppError("ERR_NO_PERMISSION");
      const [queue] = await db.select({ id: queues.id }).from(queues).where(eq(queues.id, queueId));
      if (!queue) throw new AppError("ERR_NO_QUEUE_FOUND");
      await db
        .insert(routingQueues)
        .values({ queueId, autoAssign })
        .onConflictDoUpdate({ target: routingQueues.queueId, set: { autoAssign, updatedAt: clock.now() } });
      return { queueId, autoAssign };
    },

    async setUser(actor: Actor, userId: number, maxOpenTickets: number | null) {
      if (!can(actor, "routing:manage")) throw new AppError("ERR_NO_PERMISSION");
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
      if (!user) throw new AppError("ERR_NO_USER_FOUND");
      await db
        .insert(routingUsers)
        .values({ userId, maxOpenTickets })
        .onConflictDoUpdate({ target: routingUsers.userId, set: { maxOpenTickets, updatedAt: clock.now() } });
      return { userId, maxOpenTickets };
    },
  };
}

export type AutoAssigner = ReturnType<typeof createAutoAssigner>;
