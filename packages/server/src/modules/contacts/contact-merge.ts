import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  contactChanges,
  contactExtraInfo,
  contacts,
  contactTags,
  messages,
  scheduledMessages,
  ticketRatings,
  tickets,
  ticketTags,
} from "../../db/schema.js";

export type ContactRow = typeof contacts.$inferSelect;

/** What a merge changed, for the realtime events published after commit. */
export interface MergeOutcome {
  /** The contact that stays (its row changed). */
  contactId?: number;
  /** Contacts folded into it and deleted. */
  removedContactIds: number[];
  /** Tickets that now belong to the staying contact (moved, or that received another's messages). */
  movedTicketIds: number[];
  /** Tickets folded into another ticket and deleted, with who could see them (for their delete events). */
  removedTickets: { id: number; userId: number | null; queueId: number | null }[];
}

export const emptyOutcome = (contactId?: number): MergeOutcome => ({
  contactId,
  removedContactIds: [],
  movedTicketIds: [],
  removedTickets: [],
});

/** Two outcomes of one transaction as one. */
export const combine = (a: MergeOutcome, b: MergeOutcome): MergeOutcome => ({
  contactId: b.contactId ?? a.contactId,
  removedContactIds: [...a.removedContactIds, ...b.removedContactIds],
  movedTicketIds: [...a.movedTicketIds, ...b.movedTicketIds],
  removedTickets: [...a.removedTickets, ...b.removedTickets],
});

/** A name WhatsApp or an agent gave, rather than the bare number (or LID, or BSUID) it defaults to. */
const named = (row: ContactRow) => row.name !== row.number;

/**
 * The staying contact's fields after taking `from` in: its own values win, the other's fill what
 * it lacks (a real name over a bare number, an email, the LID, BSUID and username it did not know).
 */
export function mergedFields(from: ContactRow, into: ContactRow) {
  return {
    name: named(into) || !named(from) ? into.name : from.name,
    email: into.email || from.email,
    profilePicUrl: into.profilePicUrl || from.profilePicUrl,
    lid: into.lid ?? from.lid,
    bsuid: into.bsuid ?? from.bsuid,
    username: into.username ?? from.username,
    // Issue 23 §5: the staying contact's owner, else the other's.
    ownerUserId: into.ownerUserId ?? from.ownerUserId,
  };
}

/**
 * One person had two contacts: everything of `from` (tickets, messages it wrote, extra info, tags,
 * scheduled messages, satisfaction requests, number history) becomes `into`'s, and `from` is
 * deleted. Where both had a conversation going on the same connection, one ticket keeps every
 * message (the other is folded into it). Both rows must be locked by the caller, who then writes
 * the staying contact's fields (`mergedFields`) once `from` is gone (its LID or BSUID are unique).
 */
export async function foldContact(tx: Db, from: ContactRow, into: ContactRow): Promise<MergeOutcome> {
  const outcome: MergeOutcome = { ...emptyOutcome(into.id), removedContactIds: [from.id] };
  const own = await tx.select().from(tickets).where(eq(tickets.contactId, from.id)).orderBy(tickets.id).for("update");
  for (const ticket of own) {
    const active = ticket.status === "pending" || ticket.status === "open";
    const [target] =
      active && ticket.whatsappId !== null
        ? await tx
            .select()
            .from(tickets)
            .where(
              and(
                eq(tickets.contactId, into.id),
                eq(tickets.whatsappId, ticket.whatsappId),
                inArray(tickets.status, ["pending", "open"]),
              ),
            )
            .for("update")
        : [];
    if (!target) {
      await tx.update(tickets).set({ contactId: into.id }).where(eq(tickets.id, ticket.id));
      outcome.movedTicketIds.push(ticket.id);
      continue;
    }
    // Both sides had a conversation going: one ticket keeps every message, tag and pending schedule.
    await tx.update(messages).set({ ticketId: target.id }).where(eq(messages.ticketId, ticket.id));
    await tx.execute(sql`
      insert into ${ticketTags} (ticket_id, tag_id)
      select ${target.id}, tag_id from ${ticketTags} where ticket_id = ${ticket.id}
      on conflict do nothing`);
    await tx.update(scheduledMessages).set({ ticketId: target.id }).where(eq(scheduledMessages.ticketId, ticket.id));
    await tx.update(ticketRatings).set({ ticketId: target.id }).where(eq(ticketRatings.ticketId, ticket.id));
    await tx
      .update(tickets)
      .set({
        unreadMessages: sql`${tickets.unreadMessages} + ${ticket.unreadMessages}`,
        lastInboundAt: sql`greatest(${tickets.lastInboundAt}, ${ticket.lastInboundAt})`,
        updatedAt: new Date(),
      })
      .where(eq(tickets.id, target.id));
    await tx.delete(tickets).where(eq(tickets.id, ticket.id));
    outcome.removedTickets.push({ id: ticket.id, userId: ticket.userId, queueId: ticket.queueId });
    outcome.movedTicketIds.push(target.id);
  }
  await tx.update(messages).set({ contactId: into.id }).where(eq(messages.contactId, from.id));
  await tx.update(contactExtraInfo).set({ contactId: into.id }).where(eq(contactExtraInfo.contactId, from.id));
  await tx.update(contactChanges).set({ contactId: into.id }).where(eq(contactChanges.contactId, from.id));
  await tx.update(scheduledMessages).set({ contactId: into.id }).where(eq(scheduledMessages.contactId, from.id));
  await tx.execute(sql`
    insert into ${contactTags} (contact_id, tag_id)
    select ${into.id}, tag_id from ${contactTags} where contact_id = ${from.id}
    on conflict do nothing`);
  // One pending satisfaction question per contact and connection: the staying contact's wins.
  await tx.execute(sql`
    update ${ticketRatings} set status = 'cancelled'
    where contact_id = ${from.id} and status = 'pending'
      and whatsapp_id in (select whatsapp_id from ${ticketRatings} where contact_id = ${into.id} and status = 'pending')`);
  await tx.update(ticketRatings).set({ contactId: into.id }).where(eq(ticketRatings.contactId, from.id));
  await tx.delete(contacts).where(eq(contacts.id, from.id));
  return outcome;
}

/** The ids of a contact's tickets (all of them follow the contact when it changes). */
export async function ticketsOf(tx: Db, contactId: number): Promise<number[]> {
  const rows = await tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.contactId, contactId));
  return rows.map((r) => r.id);
}
