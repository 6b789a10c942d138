import { and, eq, sql } from "drizzle-orm";
import type { MessageUpdate } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { messages, tickets } from "../../db/schema.js";
import type * as repo from "./messages.repo.js";

/** Ack 3: read. */
const READ = 3;

/**
 * A read of a customer's message can only come from our own account: the business phone (or
 * another linked device) opened the chat. WhatsApp tells linked devices with a `read` receipt
 * from our own JID naming the chat; Baileys emits it as a READ status for a `fromMe: false` key.
 */
export function isReadElsewhere(message: Pick<repo.MessageRow, "fromMe" | "read">, update: MessageUpdate): boolean {
  return !message.fromMe && !message.read && update.ack !== undefined && update.ack >= READ;
}

/**
 * In the caller's transaction (the read message locked): it and every earlier customer message of
 * its ticket are read, and the ticket's unread count becomes the customer messages after it. The
 * ticket keeps its place in the lists (a read is no activity). True when the count was rewritten.
 */
export async function readElsewhere(tx: Db, message: repo.MessageRow): Promise<boolean> {
  const ofTicket = and(eq(messages.ticketId, message.ticketId), eq(messages.fromMe, false), eq(messages.read, false));
  await tx
    .update(messages)
    .set({ read: true })
    .where(
      and(
        ofTicket,
        sql`(${messages.createdAt}, ${messages.id}) <= (${message.createdAt.toISOString()}::timestamptz, ${message.id})`,
      ),
    );
  const [ticket] = await tx
    .update(tickets)
    .set({ unreadMessages: sql`(select count(*)::int from ${messages} where ${ofTicket})` })
    .where(eq(tickets.id, message.ticketId))
    .returning({ id: tickets.id });
  return !!ticket;
}
