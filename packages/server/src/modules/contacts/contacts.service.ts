import {
  type Actor,
  type Contact,
  type ContactChange,
  type ContactListQuery,
  can,
  canAccessTicket,
  type contactInputSchema,
  type contactUpdateSchema,
  isAdmin,
  PAGE_SIZE,
  type Tag,
} from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { checkSearchTerm } from "../../lib/heavy-reads.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { ownersOf } from "../contact-owner/owners.js";
import { setContactTags } from "../tags/tag-links.js";
import { tagsOfContact } from "../tags/tags.repo.js";
import type { AuthUser } from "../users/users.repo.js";
import { twinOf } from "./contact-addresses.js";
import * as repo from "./contacts.repo.js";
import type { NumberLookup } from "./whatsapp-number.js";

/** Number changes are rare; the newest this many are shown. */
const CHANGES_SHOWN = 200;

const presentChange = (row: repo.ContactChangeRow): ContactChange => ({
  id: row.id,
  contactId: row.contactId,
  userId: row.userId,
  userName: row.userName,
  oldNumber: row.oldNumber,
  newNumber: row.newNumber,
  createdAt: row.createdAt.toISOString(),
});

/**
 * The WhatsApp identity (LID) a contact keeps when an admin changes its number. A contact known
 * only by its LID keeps it: the admin is giving that person's phone number, and inbound from the
 * LID still finds this contact. A LID learned for the old number belongs to the old number's
 * account: it is dropped, so that person's messages open a contact of their own instead of
 * landing in this one, and replies go to the new number only because an admin typed it.
 */
function lidAfterNumberChange(contact: repo.ContactRow): string | null {
  return contact.lid !== null && contact.lid === contact.number ? contact.lid : null;
}

/** The same for a Cloud API BSUID (issue 18): kept by a contact known by it alone, dropped otherwise. */
function bsuidAfterNumberChange(contact: repo.ContactRow): string | null {
  return contact.bsuid !== null && contact.bsuid === contact.number ? contact.bsuid : null;
}

/** `tags`: issue 11 (tags.repo loads them); `owners`: issue 23 §5, the owners' names when read (contact-owner/owners.ts). */
export function presentContact(
  row: repo.ContactRow,
  extraInfo: repo.ExtraInfoRow[] | undefined,
  tags: Tag[],
  owners?: Map<number, { id: number; name: string }>,
): Contact {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    ...(row.username ? { username: row.username } : {}),
    ...(extraInfo ? { extraInfo: extraInfo.map(({ id, name, value }) => ({ id, name, value })) } : {}),
    tags,
    ownerId: row.ownerUserId,
    ...(owners ? { owner: row.ownerUserId === null ? null : (owners.get(row.ownerUserId) ?? null) } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function duplicated(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError("ERR_DUPLICATED_CONTACT");
  throw error;
}

export function createContactService(deps: { db: Db; events: Publisher; heavy?: Db; numbers?: Pick<NumberLookup, "lookup"> }) {
  const { db, events } = deps;

  /**
   * Issue 18: a typed number as WhatsApp knows it (its lookup, on the default connection), and a
   * refusal when that form, or (unconfirmed) its ninth-digit twin, is already another contact.
   */
  async function settledNumber(typed: string, ownId?: number): Promise<string> {
    const looked = (await deps.numbers?.lookup(typed)) ?? { number: typed, confirmed: false };
    const forms = [looked.number];
    const twin = twinOf(looked.number);
    if (!looked.confirmed && twin) forms.push(twin);
    for (const form of forms) {
      const clash = await repo.findContactByNumber(db, form);
      if (clash && clash.id !== ownId) throw new AppError("ERR_DUPLICATED_CONTACT");
    }
    return looked.number;
  }

  async function load(id: number): Promise<Contact> {
    const row = await repo.findContactById(db, id);
    if (!row) throw new AppError("ERR_NO_CONTACT_FOUND");
    return presentContact(row, await repo.listExtraInfo(db, id), await tagsOfContact(db, id), await ownersOf(db, [row]));
  }

  return {
    async list(actor: Actor, query: ContactListQuery) {
      checkSearchTerm(query.searchParam);
      const limit = PAGE_SIZE.contacts;
      // A search scans names and numbers: the heavy-read pool (issue 19); the plain page is cheap.
      const { rows, count, countCapped } = await repo.listContacts(query.searchParam ? (deps.heavy ?? db) : db, {
        search: query.searchParam,
        owner: query.owner === "me" ? actor.id : query.owner,
        limit,
        offset: (query.pageNumber - 1) * limit,
      });
      // Each contact's tags and owner come with the page (contacts.repo.ts, issue 24).
      const owners = new Map(rows.flatMap((r) => (r.owner ? [[r.owner.id, r.owner] as const] : [])));
      return {
        contacts: rows.map((r) => presentContact(r, undefined, r.tagList, owners)),
        count,
        // A capped count (issue 24) is at least the end of this page, so more pages follow.
        hasMore: countCapped || count > query.pageNumber * limit,
        ...(query.searchParam ? { countCapped } : {}),
      };
    },

    get: load,

    async create(input: z.output<typeof contactInputSchema>): Promise<Contact> {
      const number = await settledNumber(input.number);
      const id = await db
        .transaction(async (tx) => {
          const row = await repo.insertContact(tx, { name: input.name, number, email: input.email });
          if (input.extraInfo?.length) await repo.replaceExtraInfo(tx, row.id, input.extraInfo);
          return row.id;
        })
        .catch(duplicated);
      const contact = await load(id);
      events.publish("contact", { action: "create", contact });
      return contact;
    },

    /**
     * Admins edit any contact; others only one with an active ticket they may act on (the tickets'
     * own access rule). A number is where replies go: only an admin changes it, and it is recorded.
     */
    async update(actor: AuthUser, id: number, input: z.output<typeof contactUpdateSchema>): Promise<Contact> {
      const current = await repo.findContactById(db, id);
      if (!current) throw new AppError("ERR_NO_CONTACT_FOUND");
      if (!isAdmin(actor)) {
        const scopes = await repo.activeTicketScopes(db, id);
        if (!scopes.some((ticket) => canAccessTicket(actor, ticket))) throw new AppError("ERR_NO_PERMISSION");
      }
      const numberChanges = input.number !== undefined && input.number !== current.number;
      if (numberChanges && !can(actor, "contacts:changeNumber")) throw new AppError("ERR_CONTACT_NUMBER_ADMIN_ONLY");
      const number = numberChanges && input.number ? await settledNumber(input.number, id) : input.number;
      await db
        .transaction(async (tx) => {
          const locked = await repo.lockContact(tx, id);
          if (!locked) throw new AppError("ERR_NO_CONTACT_FOUND");
          const changed = number !== undefined && number !== locked.number;
          await repo.updateContact(tx, id, {
            name: input.name,
            number,
            email: input.email,
            ...(changed ? { lid: lidAfterNumberChange(locked), bsuid: bsuidAfterNumberChange(locked) } : {}),
          });
          if (changed && number) {
            await repo.insertContactChange(tx, {
              contactId: id,
              userId: actor.id,
              userName: actor.name,
              oldNumber: locked.number,
              newNumber: number,
            });
            // Issue 22 §4: who changed it and when; the numbers themselves stay in the contact's own
            // history (deleted with the contact), never in the trail that cannot be erased.
            await recordAudit(tx, { action: "contact.numberChanged", targetType: "contact", targetId: id });
          }
          if (input.extraInfo) await repo.replaceExtraInfo(tx, id, input.extraInfo);
          if (input.tagIds) await setContactTags(tx, id, input.tagIds);
        })
        .catch(duplicated);
      const contact = await load(id);
      events.publish("contact", { action: "update", contact });
      return contact;
    },

    async changes(actor: Actor, id: number): Promise<ContactChange[]> {
      if (!can(actor, "contacts:viewChanges")) throw new AppError("ERR_NO_PERMISSION");
      if (!(await repo.findContactById(db, id))) throw new AppError("ERR_NO_CONTACT_FOUND");
      return (await repo.listContactChanges(db, id, CHANGES_SHOWN)).map(presentChange);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      if (!can(actor, "contacts-page:deleteContact")) throw new AppError("ERR_NO_PERMISSION");
      await db.transaction(async (tx) => {
        if (!(await repo.deleteContact(tx, id))) throw new AppError("ERR_NO_CONTACT_FOUND");
        // No name or number: the trail outlives the contact and cannot be erased (LGPD).
        await recordAudit(tx, { action: "contact.deleted", targetType: "contact", targetId: id });
      });
      events.publish("contact", { action: "delete", contactId: id });
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
