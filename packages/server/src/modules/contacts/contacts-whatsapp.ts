import { type Actor, type Contact, can } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import type { ChannelSession } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { contacts } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import type { Publisher } from "../../realtime/publisher.js";
import { findDefaultConnection } from "../connections/connections.repo.js";
import { tagsOfContact } from "../tags/tags.repo.js";
import * as repo from "./contacts.repo.js";
import { presentContact } from "./contacts.service.js";
import type { NumberLookup } from "./whatsapp-number.js";

/** Contact operations that go through WhatsApp: resolving a shared vCard and importing the phone's contacts. */
export function createContactWhatsApp(deps: {
  db: Db;
  events: Publisher;
  session(whatsappId: number): ChannelSession;
  numbers: Pick<NumberLookup, "contactNumber">;
}) {
  const { db, events } = deps;

  async function defaultSession(): Promise<ChannelSession> {
    const connection = await findDefaultConnection(db);
    if (!connection) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
    return deps.session(connection.id);
  }

  return {
    /** POST /contact: the contact of a shared vCard, created when new (after a WhatsApp check when one is possible). */
    async resolve(input: { name: string; number: string; email?: string }): Promise<Contact> {
      // Issue 18: WhatsApp's form of the number (a contact under the typed form moves to it).
      const number = await deps.numbers.contactNumber(input.number);
      const existing = await repo.findContactByNumber(db, number);
      if (existing) {
        return presentContact(existing, await repo.listExtraInfo(db, existing.id), await tagsOfContact(db, existing.id));
      }
      const [row] = await db
        .insert(contacts)
        .values({ name: input.name, number, email: input.email ?? "" })
        .onConflictDoUpdate({ target: contacts.number, set: { number: sql`excluded.number` } })
        .returning();
      const contact = presentContact(row, await repo.listExtraInfo(db, row.id), await tagsOfContact(db, row.id));
      events.publish("contact", { action: "create", contact });
      return contact;
    },

    /** POST /contacts/import: the default connection's phone contacts, new numbers only. */
    async importFromPhone(actor: Actor): Promise<{ imported: number; total: number }> {
      if (!can(actor, "contacts:import")) throw new AppError("ERR_NO_PERMISSION");
      const session = await defaultSession();
      const phoneContacts = (await session.listContacts()).filter((c) => /^\d{8,20}$/.test(c.number));
      let imported = 0;
      await db.transaction(async (tx) => {
        for (let i = 0; i < phoneContacts.length; i += 500) {
          const chunk = phoneContacts
            .slice(i, i + 500)
            .map((c) => ({ number: c.number, name: (c.name || c.number).slice(0, 50) }));
          const rows = await tx.insert(contacts).values(chunk).onConflictDoNothing().returning({ id: contacts.id });
          imported += rows.length;
        }
      });
      return { imported, total: phoneContacts.length };
    },
  };
}

export type ContactWhatsApp = ReturnType<typeof createContactWhatsApp>;
