import { type Actor, type Contact, can } from "@zapdesk/core";
import { and, eq, ne, or } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AddressChange, BsuidMapping, IdentityMapping, LidMapping } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { contactChanges, contacts, lidMappings } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import type { Publisher } from "../../realtime/publisher.js";
import { tagsOfContact } from "../tags/tags.repo.js";
import { isBsuidAddress, isLidAddress, isPhoneAddress, twinOf } from "./contact-addresses.js";
import {
  type ContactRow,
  combine,
  emptyOutcome,
  foldContact,
  type MergeOutcome,
  mergedFields,
  ticketsOf,
} from "./contact-merge.js";
import { listExtraInfo } from "./contacts.repo.js";
import { presentContact } from "./contacts.service.js";

export { isBsuidAddress, isLidAddress } from "./contact-addresses.js";

const CACHE_MAX = 20_000;

/** Who a number change is attributed to in a contact's history when WhatsApp, not an agent, made it. */
export const WHATSAPP_ACTOR = "WhatsApp";

type Fields = Partial<Pick<ContactRow, "lid" | "bsuid" | "username">>;

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

  async function recordChange(tx: Db, contactId: number, oldNumber: string, newNumber: string, by?: Actor & { name: string }) {
    if (oldNumber === newNumber) return;
    await tx
      .insert(contactChanges)
      .values({ contactId, userId: by?.id ?? null, userName: by?.name ?? WHATSAPP_ACTOR, oldNumber, newNumber });
  }

  /**
   * Move a contact to `to`: a contact already at that address (or holding the new BSUID) is folded
   * into it first, so the moved contact keeps its id, history and open ticket.
   */
  async function moveContact(tx: Db, contact: ContactRow, to: string, fields: Fields = {}): Promise<MergeOutcome> {
    const clauses = [eq(contacts.number, to)];
    if (fields.bsuid) clauses.push(eq(contacts.bsuid, fields.bsuid));
    const holders = await tx
      .select()
      .from(contacts)
      .where(and(or(...clauses), ne(contacts.id, contact.id), eq(contacts.isGroup, contact.isGroup)))
      .orderBy(contacts.id)
      .for("update");
    let outcome = emptyOutcome(contact.id);
    let kept = contact;
    for (const holder of holders) {
      outcome = combine(outcome, await foldContact(tx, holder, kept));
      kept = { ...kept, ...mergedFields(holder, kept) };
    }
    const { name, email, profilePicUrl, lid, bsuid, username } = kept;
    await tx
      .update(contacts)
      .set({
        name: name === contact.number ? to : name,
        email,
        profilePicUrl,
        lid,
        bsuid,
        username,
        ...fields,
        number: to,
        updatedAt: new Date(),
      })
      .where(eq(contacts.id, contact.id));
    await recordChange(tx, contact.id, contact.number, to);
    outcome.movedTicketIds.push(...(await ticketsOf(tx, contact.id)));
    return outcome;
  }

  /** Known by its alias (LID or BSUID) only until now: the contact simply gets its number. */
  async function aliasBecomesNumber(tx: Db, row: ContactRow, pn: string, fields: Fields): Promise<MergeOutcome> {
    await tx
      .update(contacts)
      .set({ ...fields, number: pn, name: row.name === row.number ? pn : row.name, updatedAt: new Date() })
      .where(eq(contacts.id, row.id));
    return { ...emptyOutcome(row.id), movedTicketIds: await ticketsOf(tx, row.id) };
  }

  /** The person contact under the other ninth-digit form of a number, locked; undefined when there is none. */
  async function twinContact(tx: Db, number: string): Promise<ContactRow | undefined> {
    const twin = twinOf(number);
    if (!twin) return undefined;
    const [row] = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.number, twin), eq(contacts.isGroup, false)))
      .for("update");
    return row;
  }

  /** Lock the rows an alias and a number name, in id order (two merges of one pair never deadlock). */
  const lockPair = (tx: Db, alias: string, aliasColumn: typeof contacts.lid | typeof contacts.bsuid, pn: string) =>
    tx
      .select()
      .from(contacts)
      .where(or(eq(contacts.number, alias), eq(aliasColumn, alias), eq(contacts.number, pn)))
      .orderBy(contacts.id)
      .for("update");

  /** A LID and a phone number: the LID-only contact becomes the number's (renamed, or folded into it). */
  async function applyLid(tx: Db, { lid, pn }: LidMapping): Promise<MergeOutcome> {
    await tx
      .insert(lidMappings)
      .values({ lid, pn })
      .onConflictDoUpdate({ target: lidMappings.lid, set: { pn, updatedAt: new Date() } });
    const rows = await lockPair(tx, lid, contacts.lid, pn);
    const byLid = rows.find((r) => r.number === lid);
    const byPn = rows.find((r) => r.number === pn);
    if (!byLid) {
      if (byPn && byPn.lid !== lid && !rows.some((r) => r.id !== byPn.id && r.lid === lid)) {
        await tx.update(contacts).set({ lid, updatedAt: new Date() }).where(eq(contacts.id, byPn.id));
        return emptyOutcome(byPn.id);
      }
      return emptyOutcome();
    }
    if (!byPn) return aliasBecomesNumber(tx, byLid, pn, { lid });
    const outcome = await foldContact(tx, byLid, byPn);
    await tx
      .update(contacts)
      .set({ ...mergedFields(byLid, byPn), lid, updatedAt: new Date() })
      .where(eq(contacts.id, byPn.id));
    deps.logger.info({ from: byLid.id, into: byPn.id }, "merged a LID contact into its phone number's");
    return outcome;
  }

  /**
   * A BSUID and a phone number: the BSUID-only contact becomes the number's; the number's contact
   * records the BSUID and username (created now when the message that carried them is its first).
   */
  async function applyBsuid(tx: Db, { bsuid, pn, username }: BsuidMapping): Promise<MergeOutcome> {
    const rows = await lockPair(tx, bsuid, contacts.bsuid, pn);
    const byAlias = rows.find((r) => r.number === bsuid);
    const byPn = rows.find((r) => r.number === pn);
    // Another number claiming this BSUID is stale (a new number always comes with a new BSUID).
    for (const stale of rows.filter((r) => r.bsuid === bsuid && r !== byAlias && r !== byPn)) {
      await tx.update(contacts).set({ bsuid: null, updatedAt: new Date() }).where(eq(contacts.id, stale.id));
    }
    if (byAlias && byPn) {
      const outcome = await foldContact(tx, byAlias, byPn);
      await tx
        .update(contacts)
        .set({ ...mergedFields(byAlias, byPn), bsuid, username: username ?? byPn.username ?? byAlias.username })
        .where(eq(contacts.id, byPn.id));
      return outcome;
    }
    if (byAlias) return aliasBecomesNumber(tx, byAlias, pn, { bsuid, username: username ?? byAlias.username });
    if (byPn?.bsuid === bsuid && (username === undefined || byPn.username === username)) return emptyOutcome();
    // A first payload from WhatsApp's form of a number kept under its ninth-digit twin: the twin moves here.
    const twin = byPn ? undefined : await twinContact(tx, pn);
    if (twin) return moveContact(tx, twin, pn, { bsuid, ...(username !== undefined ? { username } : {}) });
    await tx
      .insert(contacts)
      .values({ number: pn, name: pn, bsuid, username: username ?? null })
      .onConflictDoUpdate({
        target: contacts.number,
        set: { bsuid, ...(username !== undefined ? { username } : {}), updatedAt: new Date() },
      });
    return emptyOutcome(byPn?.id);
  }

  /** The customer now writes from another number or BSUID: the contact follows, history and ticket included. */
  async function applyChange(tx: Db, { from, to, bsuid }: AddressChange): Promise<MergeOutcome> {
    const [contact] = await tx
      .select()
      .from(contacts)
      .where(and(or(eq(contacts.number, from), eq(contacts.bsuid, from)), eq(contacts.isGroup, false)))
      .orderBy(contacts.id)
      .limit(1)
      .for("update");
    if (!contact || from === to) return emptyOutcome();
    // A new number comes with a new BSUID: the old one (and a LID) belonged to the old number.
    if (isPhoneAddress(to)) return moveContact(tx, contact, to, { bsuid: bsuid ?? null, lid: null });
    // A new BSUID: the contact keyed by its BSUID alone is renamed; one with a number only records it.
    return moveContact(tx, contact, contact.number === from ? to : contact.number, { bsuid: to });
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
