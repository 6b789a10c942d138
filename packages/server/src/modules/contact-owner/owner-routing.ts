import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contacts, tickets, userQueues } from "../../db/schema.js";
import { notBotHeld } from "../bots/bots.repo.js";

/** How many owned waiting tickets one pass gives to their owners at most. */
const BATCH = 200;

/**
 * Issue 23 §5: the owner first. A waiting, unassigned ticket of an owned contact goes to the owner
 * when the owner is online, under capacity and a member of the ticket's queue (or the ticket has no
 * queue and is not at the greeting menu); the ticket becomes open in the owner's Working list.
 * Otherwise it stays where it is and the queue's routing applies as usual (automatic assignment
 * to another agent, or an agent accepting it). Runs inside the automatic-assignment pass, under its
 * lock, before the queues' round-robin; `load` counts the assignments it makes.
 */
export async function routeToOwners(
  tx: Db,
  online: number[],
  load: Map<number, number>,
  capacity: Map<number, number | null>,
  now: Date,
): Promise<{ ticketId: number; userId: number }[]> {
  if (!online.length) return [];
  const owner = contacts.ownerUserId;
  const candidates = await tx
    .select({ id: tickets.id, owner })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(
      and(
        eq(tickets.status, "pending"),
        isNull(tickets.userId),
        notBotHeld,
        inArray(owner, online),
        or(
          // No queue (and not choosing one at the menu), or a queue the owner is a member of.
          and(isNull(tickets.queueId), isNull(tickets.menuSentAt)),
          and(
            isNotNull(tickets.queueId),
            sql`exists (select 1 from ${userQueues} where ${userQueues.userId} = ${owner} and ${userQueues.queueId} = ${tickets.queueId})`,
          ),
        ),
      ),
    )
    .orderBy(asc(tickets.createdAt), asc(tickets.id))
    .limit(BATCH)
    .for("update", { of: tickets });
  const made: { ticketId: number; userId: number }[] = [];
  for (const ticket of candidates) {
    const userId = ticket.owner as number;
    const cap = capacity.get(userId) ?? null;
    if (cap !== null && (load.get(userId) ?? 0) >= cap) continue;
    await tx.update(tickets).set({ status: "open", userId, updatedAt: now }).where(eq(tickets.id, ticket.id));
    load.set(userId, (load.get(userId) ?? 0) + 1);
    made.push({ ticketId: ticket.id, userId });
  }
  return made;
}
