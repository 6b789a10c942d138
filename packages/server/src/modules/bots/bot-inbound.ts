import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { botJobs, botSessions } from "../../db/schema.js";
import type { TicketRow } from "../tickets/tickets.repo.js";
import { endSession, findBot, findSession } from "./bots.repo.js";

/** What the hook reads of an inbound message stored on a ticket. */
export interface BotInbound {
  /** The ticket after the message (its queue settled). */
  ticket: Pick<TicketRow, "id" | "status" | "userId" | "queueId">;
  /** The ticket entered its queue's waiting list with this message (routed now, opened or reopened). */
  entered: boolean;
  messageId: number;
  fromMe: boolean;
  isGroup: boolean;
  now: Date;
}

/**
 * Issue 23 §4, the one call the inbound roads make once a ticket's queue is decided, in the
 * message's transaction: a customer's message on a ticket its queue's bot holds (or that enters a
 * queue with a bot) is queued for the bot (bot_jobs) instead of waiting for an agent. Returns
 * whether the bot holds the ticket. A ticket someone took meanwhile (an admin's take-over) ends the
 * session.
 */
export async function holdForBot(tx: Db, input: BotInbound): Promise<boolean> {
  const { ticket } = input;
  if (input.fromMe || input.isGroup || ticket.queueId === null) return false;
  const waiting = ticket.status === "pending" && ticket.userId === null;
  const session = await findSession(tx, ticket.id, true);
  if (session) {
    if (!waiting || session.queueId !== ticket.queueId) {
      await endSession(tx, ticket.id);
      return false;
    }
    await tx.update(botSessions).set({ lastActivityAt: input.now }).where(eq(botSessions.ticketId, ticket.id));
    await tx.insert(botJobs).values({ ticketId: ticket.id, messageId: input.messageId });
    return true;
  }
  if (!input.entered || !waiting) return false;
  const bot = await findBot(tx, ticket.queueId);
  if (!bot) return false;
  await tx
    .insert(botSessions)
    .values({ ticketId: ticket.id, queueId: ticket.queueId, kind: bot.kind, lastActivityAt: input.now });
  await tx.insert(botJobs).values({ ticketId: ticket.id, messageId: input.messageId });
  return true;
}
