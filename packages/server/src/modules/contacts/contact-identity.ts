import { type Actor, type Contact, can } from "@zapdesk/core";
import { eq, or } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { IdentityMapping } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { contacts, lidMappings } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { tagsOfContact } from "../tags/tags.repo.js";
import { isBsuidAddress, isLidAddress, isPhoneAddress } from "./contact-addresses.js";
import { type ContactRow, emptyOutcome, foldContact, type MergeOutcome, mergedFields } from "./contact-merge.js";
import { applyBsuid, applyChange, applyLid, moveContact, recordChange, twinContact } from "./contact-moves.js";
import { listExtraInfo } from "./contacts.repo.js";
import { presentContact } from "./contacts.service.js";

export { isBsuidAddress, isLidAddress } from "./contact-addresses.js";
export { WHATSAPP_ACTOR } from "./contact-moves.js";

const CACHE_MAX = 20_000;

/**
 * One customer is one contact (issue 18 §3). Every way WhatsApp reveals who a customer is goes
 * through here, for the one-message and the batched inbound paths alike:
 * - a LID (QR) or a BSUID (Cloud API) and the phone number it belongs to: the contact known by
 *   the alias alone is renamed to the number, or folded into the contact that has it;
 * - a customer who changed number or BSUID: the contact moves to the new address and keeps its
 *   history and open ticket (the outbox reads the address when it sends, so nothing queued or
 *   scheduled goes to the old one);
 * - Brazil's ninth digit: WhatsApp's own id for a number an agent typed (its lookup on QR, the
 *   send answer's wa_id on Cloud), and a message from one form while only the other is a contact;
 * - an admin merging two contacts of one person.
 * All of them fold contacts with the one `foldContact`, in one transaction, and publish after commit.
 */
export function createContactIdentity(deps: {
  db: Db;
  events: Publisher;
  logger: FastifyBaseLogger;
  /** Publish a ticket that moved to another contact, or received another ticket's messages. */
  announceTicket(id: number): Promise<void>;
  announceTicketDeleted(id: number, scope: { userId: number | null; queueId: number | null }): void;
}) {
  const { db } = deps;
  /** Alias (LID or BSUID) -> phone number, as last learned here. */
  const known = new Map<string, string>();
  /** Mappings this process applied (with the username), so a repeat costs nothing. */
  const applied = new Set<string>();

  const remember = (alias: string, pn: string) => {
    if (known.size >= CACHE_MAX) known.delete(known.keys().next().value as string);
    known.set(alias, pn);
  };
  /** An address that moved: nothing cached may lead to it any more. */
  const forget = (address: string) => {
    known.delete(address);
    for (const [alias, pn] of known) if (pn === address) known.delete(alias);
    applied.clear();
  };

  /** The phone number a LID or BSUID address belongs to, when known; any other address as it is. */
  async function resolve(executor: Db, chat: string): Promise<string> {
    const lid = isLidAddress(chat);
    if (!lid && !isBsuidAddress(chat)) return chat;
    const cached = known.get(chat);
    if (cached) return cached;
    if (lid) {
      const [mapping] = await executor.select({ pn: lidMappings.pn }).from(lidMappings).where(eq(lidMappings.lid, chat));
      if (mapping) {
        remember(chat, mapping.pn);
        return mapping.pn;
      }
    }
    // A contact that carries this alias under another number (an admin typed it, or a payload told it).
    const [owner] = await executor
      .select({ number: contacts.number })
      .from(contacts)
      .where(lid ? eq(contacts.lid, chat) : eq(contacts.bsuid, chat));
    return owner?.number ?? chat;
  }

  /** After commit: contact and ticket events for what a merge or move changed. */
  async function publish(outcome: MergeOutcome): Promise<void> {
    for (const id of new Set(outcome.removedContactIds)) deps.events.publish("contact", { action: "delete", contactId: id });
    if (outcome.contactId !== undefined) {
      const [row] = await db.select().from(contacts).where(eq(contacts.id, outcome.contactId));
      if (row) {
        deps.events.publish("contact", {
          action: "update",
          contact: presentContact(row, undefined, await tagsOfContact(db, row.id)),
        });
      }
    }
    for (const ticket of outcome.removedTickets) deps.announceTicketDeleted(ticket.id, ticket);
    const removed = new Set(outcome.removedTickets.map((t) => t.id));
    for (const id of new Set(outcome.movedTicketIds)) if (!removed.has(id)) await deps.announceTicket(id);
  }

  function signature(mapping: IdentityMapping): string | undefined {
    if (mapping.kind === "changed") return undefined;
    if (mapping.kind === "bsuid") return `${mapping.bsuid}=${mapping.pn}=${mapping.username ?? ""}`;
    return `${mapping.lid}=${mapping.pn}`;
  }

  function valid(mapping: IdentityMapping): boolean {
    if (mapping.kind === "changed") {
      const address = (a: string) => isPhoneAddress(a) || isBsuidAddress(a);
      return address(mapping.from) && address(mapping.to) && (!mapping.bsuid || isBsuidAddress(mapping.bsuid));
    }
    if (mapping.kind === "bsuid") return isBsuidAddress(mapping.bsuid) && isPhoneAddress(mapping.pn);
    return isLidAddress(mapping.lid) && isPhoneAddress(mapping.pn);
  }

  return {
    resolve,
    publish,

    /** Record what a channel learned about who a customer is, and merge or move what it changes. */
    async learn(mapping: IdentityMapping): Promise<void> {
      if (!valid(mapping)) return;
      const key = signature(mapping);
      if (key !== undefined && applied.has(key)) return;
      const outcome = await db.transaction((tx) => {
        if (mapping.kind === "changed") return applyChange(tx, mapping);
        if (mapping.kind === "bsuid") return applyBsuid(tx, mapping);
        return applyLid(tx, mapping);
      });
      if (outcome.removedContactIds.length > 0) {
        deps.logger.info(
          { kind: mapping.kind ?? "lid", into: outcome.contactId, from: outcome.removedContactIds },
          "merged contacts of one customer",
        );
      }
      if (mapping.kind === "changed") forget(mapping.from);
      else if (mapping.kind === "bsuid") remember(mapping.bsuid, mapping.pn);
      else remember(mapping.lid, mapping.pn);
      if (key !== undefined) {
        if (applied.size >= CACHE_MAX) applied.delete(applied.values().next().value as string);
        applied.add(key);
      }
      await publish(outcome);
    },

    /**
     * Inside an inbound transaction: the contact just created for `created.number` has a ninth-digit
     * twin (only the other form was a contact). WhatsApp's ids are its own, so the twin moves to
     * this form and the empty new row is folded away. The staying contact, as it now is.
     */
    async adoptTwin(tx: Db, created: ContactRow): Promise<{ contact: ContactRow; outcome: MergeOutcome }> {
      const row = await twinContact(tx, created.number);
      if (!row) return { contact: created, outcome: emptyOutcome() };
      const outcome = await moveContact(tx, row, created.number);
      const [contact] = await tx.select().from(contacts).where(eq(contacts.id, row.id));
      deps.logger.info(
        { contactId: row.id, from: row.number, to: created.number },
        "a contact took WhatsApp's form of its number",
      );
      return { contact, outcome };
    },

    /**
     * WhatsApp knows the contact by another number (its lookup answered it, or a send answer's
     * wa_id named it): the contact moves there, folding in any contact that already had it.
     */
    async renumber(contactId: number, to: string): Promise<void> {
      if (!isPhoneAddress(to)) return;
      const outcome = await db.transaction(async (tx) => {
        const [contact] = await tx.select().from(contacts).where(eq(contacts.id, contactId)).for("update");
        if (!contact || contact.isGroup || contact.number === to || !isPhoneAddress(contact.number)) return emptyOutcome();
        return moveContact(tx, contact, to);
      });
      if (outcome.contactId === undefined) return;
      forget(to);
      await publish(outcome);
    },

    /**
     * An admin folds a duplicate contact of one person into the contact that stays (issue 18: twins
     * made before WhatsApp's lookup was asked, or a customer who wrote from two numbers).
     */
    async merge(actor: Actor & { name: string }, keepId: number, duplicateId: number): Promise<Contact> {
      if (!can(actor, "contacts:merge")) throw new AppError("ERR_NO_PERMISSION");
      if (keepId === duplicateId) throw new AppError("ERR_CONTACT_MERGE_SAME");
      const outcome = await db.transaction(async (tx) => {
        const rows = await tx
          .select()
          .from(contacts)
          .where(or(eq(contacts.id, keepId), eq(contacts.id, duplicateId)))
          .orderBy(contacts.id)
          .for("update");
        const keep = rows.find((r) => r.id === keepId);
        const duplicate = rows.find((r) => r.id === duplicateId);
        if (!keep || !duplicate) throw new AppError("ERR_NO_CONTACT_FOUND");
        if (keep.isGroup || duplicate.isGroup) throw new AppError("ERR_CONTACT_MERGE_GROUP");
        const folded = await foldContact(tx, duplicate, keep);
        await tx
          .update(contacts)
          .set({ ...mergedFields(duplicate, keep), updatedAt: new Date() })
          .where(eq(contacts.id, keep.id));
        await recordChange(tx, keep.id, duplicate.number, keep.number, actor);
        await recordAudit(tx, {
          action: "contact.merged",
          targetType: "contact",
          targetId: keep.id,
          details: { mergedContactId: duplicate.id },
        });
        return { ...folded, gone: duplicate.number };
      });
      forget(outcome.gone);
      await publish(outcome);
      const [row] = await db.select().from(contacts).where(eq(contacts.id, keepId));
      return presentContact(row, await listExtraInfo(db, keepId), await tagsOfContact(db, keepId));
    },
  };
}

export type ContactIdentity = ReturnType<typeof createContactIdentity>;
