import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contacts, ticketRatings, tickets } from "../../db/schema.js";
import { isOptedOut } from "../consent/consent.repo.js";
import type { Outgoing } from "../messages/outbound-queue.js";
import type { TicketRow } from "../tickets/tickets.repo.js";
import { parseRating } from "./parse-rating.js";

export type RatingRow = typeof ticketRatings.$inferSelect;

/**
 * After a resolve (in the resolve's transaction, after the farewell): when the connection has a
 * rating question, it is queued through the outbox as a bot message and a pending request is
 * recorded until `expiresAt`. An older request of the same customer still pending is cancelled
 * (the newest conversation is the one rated). Groups are never asked. Returns whether a message
 * was queued.
 */
export async function requestRating(
  tx: Db,
  outgoing: Pick<Outgoing, "enqueue">,
  input: { ticket: TicketRow; connection: { ratingMessage: string; ratingTimeoutMinutes: number }; now: Date },
): Promise<boolean> {
  const { ticket, connection, now } = input;
  const question = connection.ratingMessage.trim();
  if (!question || ticket.isGroup || ticket.whatsappId === null) return false;
  // Issue 22 §3: a customer who opted out is not asked (no pending question waits for an answer either).
  if (await isOptedOut(tx, ticket.contactId)) return false;
  await tx
    .update(ticketRatings)
    .set({ status: "cancelled" })
    .where(
      and(
        eq(ticketRatings.contactId, ticket.contactId),
        eq(ticketRatings.whatsappId, ticket.whatsappId),
        eq(ticketRatings.status, "pending"),
      ),
    );
  // Sent after the farewell (queued just before in the same transaction: the outbox keeps that order).
  const [message] = await outgoing.enqueue(tx, { ticket, body: question, automation: "system" });
  await tx.insert(ticketRatings).values({
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    status: "pending",
    questionMessageId: message.id,
    requestedAt: now,
    expiresAt: new Date(now.getTime() + connection.ratingTimeoutMinutes * 60_000),
  });
  return true;
}

/** A rated answer: the closed ticket the answer is stored on. */
export interface RatingAnswer {
  ticket: TicketRow;
  rating: number;
  ratingId: number;
}

/**
 * A customer's message while a rating request may be pending (inside the message's transaction).
 * An answer 1–5 within the window rates the ticket (exactly once: a conditional update) and
 * returns it: the message is stored on that closed ticket, which is neither reopened nor
 * replaced. Anything else ends the request (expired once the window passed, cancelled for any
 * other message, or when the ticket was reopened meanwhile) and returns undefined: the message is
 * handled as usual. A request whose ticket was reopened, or whose customer has another active
 * ticket on the connection, is cancelled the same way.
 */
export async function answerRating(
  tx: Db,
  input: { whatsappId: number; contactId: number; body: string; now: Date },
): Promise<RatingAnswer | undefined> {
  const [pending] = await tx
    .select()
    .from(ticketRatings)
    .where(
      and(
        eq(ticketRatings.contactId, input.contactId),
        eq(ticketRatings.whatsappId, input.whatsappId),
        eq(ticketRatings.status, "pending"),
      ),
    );
  if (!pending) return undefined;
  const [ticket] = await tx.select().from(tickets).where(eq(tickets.id, pending.ticketId)).for("update");
  // A conversation started since (an agent's new ticket) makes the question outdated.
  const [active] = await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.contactId, input.contactId),
        eq(tickets.whatsappId, input.whatsappId),
        inArray(tickets.status, ["pending", "open"]),
      ),
    )
    .limit(1);
  const rating = parseRating(input.body);
  const expired = pending.expiresAt.getTime() <= input.now.getTime();
  const usable = !expired && rating !== undefined && ticket?.status === "closed" && !active;
  const [claimed] = await tx
    .update(ticketRatings)
    .set(usable ? { status: "rated", rating, ratedAt: input.now } : { status: expired ? "expired" : "cancelled" })
    .where(and(eq(ticketRatings.id, pending.id), eq(ticketRatings.status, "pending")))
    .returning({ id: ticketRatings.id });
  if (!usable || !claimed || rating === undefined || !ticket) return undefined;
  // Not through updateTicket: a closed ticket's last update is its closing (the dashboard counts by it).
  // The ticket is closed: its agent is the one who resolved the conversation rated, whom the rating stays with.
  const [rated] = await tx
    .update(tickets)
    .set({ rating, ratedAt: input.now, ratedUserId: ticket.userId })
    .where(eq(tickets.id, ticket.id))
    .returning();
  return { ticket: rated, rating, ratingId: pending.id };
}

/** Links the stored answer to its request (history, audit). */
export async function recordAnswerMessage(tx: Db, ratingId: number, messageId: number): Promise<void> {
  await tx.update(ticketRatings).set({ answerMessageId: messageId }).where(eq(ticketRatings.id, ratingId));
}

/**
 * Whether any of these customers (phone numbers) has a rating request pending on the connection:
 * their messages then take the one-message path, which reads answers.
 */
export async function anyPendingRating(tx: Db, whatsappId: number, numbers: string[]): Promise<boolean> {
  if (numbers.length === 0) return false;
  const [row] = await tx
    .select({ id: ticketRatings.id })
    .from(ticketRatings)
    .innerJoin(contacts, eq(contacts.id, ticketRatings.contactId))
    .where(and(eq(ticketRatings.whatsappId, whatsappId), eq(ticketRatings.status, "pending"), inArray(contacts.number, numbers)))
    .limit(1);
  return !!row;
}

/** The sweeper: pending requests past their window become expired. Returns how many. */
export async function expireRatings(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(ticketRatings)
    .set({ status: "expired" })
    .where(and(eq(ticketRatings.status, "pending"), lte(ticketRatings.expiresAt, now)))
    .returning({ id: ticketRatings.id });
  return rows.length;
}

/** Requests of a ticket, newest first (tests, support). */
export async function ratingsOfTicket(db: Db, ticketId: number): Promise<RatingRow[]> {
  return db.select().from(ticketRatings).where(eq(ticketRatings.ticketId, ticketId)).orderBy(sql`${ticketRatings.id} desc`);
}
