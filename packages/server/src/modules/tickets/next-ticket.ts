import { and, asc, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { tickets } from "../../db/schema.js";
import { type TicketFilter, ticketListWhere } from "./ticket-list.repo.js";
import { findJoinedTicketWhere, type JoinedTicket } from "./tickets.repo.js";

/**
 * Issue 13 "the next conversation": the ticket an agent should handle after leaving `after`.
 * First the oldest waiting ticket of their Waiting list (the list's own access and inbox rules,
 * status pending, the longest waiting first: `tickets_status_waiting_idx`), else the
 * top of their Working on list (their own open tickets, newest moved first:
 * `tickets_user_status_updated_idx`). One statement: each branch stops at its first row, the
 * winner is joined to its contact, queue, user and connection.
 */
export async function findNextTicket(
  db: Db,
  actor: TicketFilter["actor"],
  after: number | undefined,
): Promise<JoinedTicket | undefined> {
  const notAfter = (): SQL | undefined => (after ? ne(tickets.id, after) : undefined);
  const waiting = db
    .select({ id: tickets.id, rank: sql<number>`0`.as("rank") })
    .from(tickets)
    .where(and(ticketListWhere({ actor, status: "pending", showAll: false }), notAfter()))
    .orderBy(asc(tickets.waitingSince), asc(tickets.updatedAt), asc(tickets.id))
    .limit(1);
  const working = db
    .select({ id: tickets.id, rank: sql<number>`1`.as("rank") })
    .from(tickets)
    .where(and(eq(tickets.status, "open"), eq(tickets.userId, actor.id), notAfter()))
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(1);
  return findJoinedTicketWhere(
    db,
    eq(
      tickets.id,
      sql`(select candidates.id from ((${waiting}) union all (${working})) as candidates order by candidates.rank limit 1)`,
    ),
  );
}
