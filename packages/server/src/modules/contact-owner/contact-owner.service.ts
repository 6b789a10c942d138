import { type Contact, can } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Publisher } from "../../realtime/publisher.js";
import type { AuthUser } from "../users/users.repo.js";
import { setContactOwner } from "./contact-owner.js";
import { publishContact } from "./publish.js";

/**
 * Issue 23 §5: setting a contact's owner by hand (docs/contact-owner.md). With `contacts:setOwner`
 * (admins) anyone may be made the owner, or none. Without it, every contact being listed for every
 * agent, an agent takes an unowned contact for themself, and lets go of a contact they own; another
 * agent's customer stays theirs (ERR_CONTACT_OWNER_TAKEN), and naming someone else is refused
 * (ERR_CONTACT_OWNER_ADMIN_ONLY).
 */
export function createContactOwnerService(deps: { db: Db; events: Publisher; get: (id: number) => Promise<Contact> }) {
  const { db, events } = deps;

  return {
    async set(actor: AuthUser, contactId: number, userId: number | null): Promise<Contact> {
      const anyone = can(actor, "contacts:setOwner");
      if (!anyone && userId !== null && userId !== actor.id) throw new AppError("ERR_CONTACT_OWNER_ADMIN_ONLY");
      const change = await db.transaction((tx) =>
        setContactOwner(tx, contactId, userId, {
          source: "manual",
          check: (current) => {
            if (!anyone && current !== null && current !== actor.id) throw new AppError("ERR_CONTACT_OWNER_TAKEN");
          },
        }),
      );
      if (change.changed) await publishContact(db, events, contactId);
      return deps.get(contactId);
    },
  };
}

export type ContactOwnerService = ReturnType<typeof createContactOwnerService>;
