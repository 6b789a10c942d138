import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queues } from "../../db/schema.js";
import { enqueueOutbound } from "../messages/outbound.js";
import { personalise } from "../messages/queue-menu.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";

export interface HandOver {
  ticket: ticketsRepo.TicketRow;
  /** null: no queue to hand over to (a connection without queues); the ticket only leaves the menu. */
  queueId: number | null;
  /** An agent of the menu: the ticket is theirs (open) in the queue. */
  userId?: number | null;
  /** The customer's name, for the queue's greeting. */
  name: string;
  /** The ticket's preview to keep (an answer like "2" is no preview); undefined: leave it. */
  preview?: string;
  /** Send the queue's greeting (the one-level menu's single-queue route never did). */
  greet?: boolean;
}

/**
 * The one place a ticket leaves the menu for a queue (issue 23 §3): a choice, a "talk to a person"
 * word, the fallback after invalid answers, the timeout. The ticket gets the queue (and the agent),
 * its place in the menu is cleared, and the queue's greeting goes to the customer. What comes after
 * a queue is chosen (a bot, issue 23 §4) hooks here. Returns the ticket as it now is and the ids of
 * the messages queued.
 */
export async function handToQueue(tx: Db, input: HandOver): Promise<{ ticket: ticketsRepo.TicketRow; botIds: number[] }> {
  const updated = await ticketsRepo.updateTicket(tx, input.ticket.id, {
    menuNodeId: null,
    menuRetries: 0,
    menuDeadlineAt: null,
    ...(input.queueId !== null ? { queueId: input.queueId } : {}),
    ...(input.userId ? { userId: input.userId, status: "open" } : {}),
    ...(input.preview !== undefined ? { lastMessage: input.preview } : {}),
  });
  if (!updated) throw new Error("ticket vanished");
  if (input.queueId === null || input.greet === false) return { ticket: updated, botIds: [] };
  const [queue] = await tx.select({ greetingMessage: queues.greetingMessage }).from(queues).where(eq(queues.id, input.queueId));
  if (!queue?.greetingMessage.trim()) return { ticket: updated, botIds: [] };
  const greeting = await enqueueOutbound(tx, {
    ticket: updated,
    body: personalise(queue.greetingMessage, input.name),
    automation: "menu",
  });
  return { ticket: updated, botIds: [greeting.id] };
}
