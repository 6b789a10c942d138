import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { IdentityMapping } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { contactExtraInfo, contacts, lidMappings, messages, tickets } from "../../db/schema.js";
import type { Publisher } from "../../realtime/publisher.js";
import { tagsOfContact } from "../tags/tags.repo.js";
import { presentContact } from "./contacts.service.js";

const CACHE_MAX = 20_000;

export const isLidAddress = (chat: string) => chat.endsWith("@lid");

/** What a merge changed, for the realtime events published after commit. */
interface MergeOutcome {
  contactId?: number;
  removedContactId?: number;
  movedTicketIds: number[];
  removedTicketIds: number[];
}

/**
 * A customer WhatsApp shows by LID (an opaque id) is the same person as their phone number once
 * the two are known together. The LID <-> phone table is fed by every mapping a channel reports;
 * a contact created under the LID alone is renamed to the number, or merged (tickets, messages,
 * extra info) into the contact that already has the number.
 */
export function createContactIdentity(deps: {
  db: Db;
  events: Publisher;
  logger: FastifyBaseLogger;
  /** Publish a ticket that moved to another contact, or was folded into another ticket. */
  announceTicket(id: number): Promise<void>;
  announceTicketDeleted(id: number, scope: { userId: number | null; queueId: number | null }): void;
}) {
  const { db } = deps;
  const known = new Map<string, string>();

  const remember = (lid: string, pn: string) => {
    if (known.size >= CACHE_MAX) known.delete(known.keys().next().value as string);
    known.set(lid, pn);
  };

  /** The phone number a LID address belongs to, when known; any other address as it is. */
  async function resolve(executor: Db, chat: string): Promise<string> {
    if (!isLidAddress(chat)) return chat;
    const cached = known.get(chat);
    if (cached) return cached;
    const [mapping] = await executor.select({ pn: lidMappings.pn }).from(lidMappings).where(eq(lidMappings.lid, chat));
    if (mapping) {
      remember(chat, mapping.pn);
      return mapping.pn;
    }
    // A contact that carries this LID under another number (an admin typed the number in).
    const [owner] = await executor.select({ number: contacts.number }).from(contacts).where(eq(contacts.lid, chat));
    return owner?.number ?? chat;
  }

  async function merge(tx: Db, { lid, pn }: IdentityMapping): Promise<MergeOutcome> {
    const outcome: MergeOutcome = { movedTicketIds: [], removedTicketIds: [] };
    // Lock both rows in id order: two merges of the same pair never deadlock.
    const rows = await tx
      .select()
      .from(contacts)
      .where(or(eq(contacts.number, lid), eq(contacts.lid, lid), eq(contacts.number, pn)))
      .orderBy(asc(contacts.id))
      .for("update");
    const byLid = rows.find((r) => r.number === lid);
    const byPn = rows.find((r) => r.number === pn);
    if (!byLid) {
      if (byPn && byPn.lid !== lid && !rows.some((r) => r.id !== byPn.id && r.lid === lid)) {
        await tx.update(contacts).set({ lid, updatedAt: new Date() }).where(eq(contacts.id, byPn.id));
        outcome.contactId = byPn.id;
      }
      return outcome;
    }
    if (!byPn) {
      // Known by LID only until now: the contact simply gets its number.
      await tx
        .update(contacts)
        .set({
          number: pn,
          lid,
          name: byLid.name === byLid.number ? pn : byLid.name,
          updatedAt: new Date(),
        })
        .where(eq(contacts.id, byLid.id));
      outcome.contactId = byLid.id;
      const moved = await tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.contactId, byLid.id));
      outcome.movedTicketIds = moved.map((t) => t.id);
      return outcome;
    }
    // Two contacts for one person: fold the LID one into the one with the number.
    const lidTickets = await tx.select().from(tickets).where(eq(tickets.contactId, byLid.id)).for("update");
    for (const ticket of lidTickets) {
      const active = ticket.status === "pending" || ticket.status === "open";
      const [target] =
        active && ticket.whatsappId !== null
          ? await tx
              .select()
              .from(tickets)
              .where(
                and(
                  eq(tickets.contactId, byPn.id),
                  eq(tickets.whatsappId, ticket.whatsappId),
                  inArray(tickets.status, ["pending", "open"]),
                ),
              )
              .for("update")
          : [];
      if (target) {
        // Both sides had a conversation going: one ticket keeps every message.
        await tx.update(messages).set({ ticketId: target.id }).where(eq(messages.ticketId, ticket.id));
        await tx
          .update(tickets)
          .set({
            unreadMessages: sql`${tickets.unreadMessages} + ${ticket.unreadMessages}`,
            lastInboundAt: sql`greatest(${tickets.lastInboundAt}, ${ticket.lastInboundAt})`,
            updatedAt: new Date(),
          })
          .where(eq(tickets.id, target.id));
        await tx.delete(tickets).where(eq(tickets.id, ticket.id));
        outcome.removedTicketIds.push(ticket.id);
        outcome.movedTicketIds.push(target.id);
        deps.logger.info({ from: ticket.id, into: target.id }, "merged the tickets of a LID contact");
      } else {
        await tx.update(tickets).set({ contactId: byPn.id }).where(eq(tickets.id, ticket.id));
        outcome.movedTicketIds.push(ticket.id);
      }
    }
    await tx.update(messages).set({ contactId: byPn.id }).where(eq(messages.contactId, byLid.id));
    await tx.update(contactExtraInfo).set({ contactId: byPn.id }).where(eq(contactExtraInfo.contactId, byLid.id));
    await tx.delete(contacts).where(eq(contacts.id, byLid.id));
    await tx
      .update(contacts)
      .set({
        lid,
        name: byPn.name === byPn.number && byLid.name !== byLid.number ? byLid.name : byPn.name,
        email: byPn.email || byLid.email,
        updatedAt: new Date(),
      })
      .where(eq(contacts.id, byPn.id));
    outcome.contactId = byPn.id;
    outcome.removedContactId = byLid.id;
    return outcome;
  }

  return {
    resolve,

    /** A LID and a phone number are one customer: record it and merge what was split. */
    async learn(mapping: IdentityMapping): Promise<void> {
      if (!isLidAddress(mapping.lid) || !/^\d{5,20}$/.test(mapping.pn)) return;
      if (known.get(mapping.lid) === mapping.pn) return;
      const removedScopes = new Map<number, { userId: number | null; queueId: number | null }>();
      const outcome = await db.transaction(async (tx) => {
        await tx
          .insert(lidMappings)
          .values({ lid: mapping.lid, pn: mapping.pn })
          .onConflictDoUpdate({ target: lidMappings.lid, set: { pn: mapping.pn, updatedAt: new Date() } });
        const scopes = await tx
          .select({ id: tickets.id, userId: tickets.userId, queueId: tickets.queueId })
          .from(tickets)
          .innerJoin(contacts, eq(contacts.id, tickets.contactId))
          .where(eq(contacts.number, mapping.lid));
        for (const s of scopes) removedScopes.set(s.id, { userId: s.userId, queueId: s.queueId });
        return merge(tx, mapping);
      });
      remember(mapping.lid, mapping.pn);
      if (outcome.removedContactId !== undefined) {
        deps.events.publish("contact", { action: "delete", contactId: outcome.removedContactId });
      }
      if (outcome.contactId !== undefined) {
        const [row] = await db.select().from(contacts).where(eq(contacts.id, outcome.contactId));
        if (row)
          deps.events.publish("contact", {
            action: "update",
            contact: presentContact(row, undefined, await tagsOfContact(db, row.id)),
          });
      }
      for (const id of outcome.removedTicketIds) {
        deps.announceTicketDeleted(id, removedScopes.get(id) ?? { userId: null, queueId: null });
      }
      for (const id of new Set(outcome.movedTicketIds)) await deps.announceTicket(id);
    },
  };
}

export type ContactIdentity = ReturnType<typeof createContactIdentity>;
