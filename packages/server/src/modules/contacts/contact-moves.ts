import type { Actor } from "@zapdesk/core";
import { and, eq, ne, or } from "drizzle-orm";
import type { AddressChange, BsuidMapping, LidMapping } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { contactChanges, contacts, lidMappings } from "../../db/schema.js";
import { isPhoneAddress, twinOf } from "./contact-addresses.js";
import {
  type ContactRow,
  combine,
  emptyOutcome,
  foldContact,
  type MergeOutcome,
  mergedFields,
  ticketsOf,
} from "./contact-merge.js";

/**
 * The identity module's writes (contact-identity.ts), each inside the caller's transaction: a
 * contact moves to another address, or takes an alias's contact in, always through `foldContact`.
 */

/** Who a number change is attributed to in a contact's history when WhatsApp, not an agent, made it. */
export const WHATSAPP_ACTOR = "WhatsApp";

type Fields = Partial<Pick<ContactRow, "lid" | "bsuid" | "username">>;

export async function recordChange(
  tx: Db,
  contactId: number,
  oldNumber: string,
  newNumber: string,
  by?: Actor & { name: string },
) {
  if (oldNumber === newNumber) return;
  await tx
    .insert(contactChanges)
    .values({ contactId, userId: by?.id ?? null, userName: by?.name ?? WHATSAPP_ACTOR, oldNumber, newNumber });
}

/**
 * Move a contact to `to`: a contact already at that address (or holding the new BSUID) is folded
 * into it first, so the moved contact keeps its id, history and open ticket.
 */
export async function moveContact(tx: Db, contact: ContactRow, to: string, fields: Fields = {}): Promise<MergeOutcome> {
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
export async function twinContact(tx: Db, number: string): Promise<ContactRow | undefined> {
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
export async function applyLid(tx: Db, { lid, pn }: LidMapping): Promise<MergeOutcome> {
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
  return outcome;
}

/**
 * A BSUID and a phone number: the BSUID-only contact becomes the number's; the number's contact
 * records the BSUID and username (created now when the message that carried them is its first).
 */
export async function applyBsuid(tx: Db, { bsuid, pn, username }: BsuidMapping): Promise<MergeOutcome> {
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
export async function applyChange(tx: Db, { from, to, bsuid }: AddressChange): Promise<MergeOutcome> {
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
