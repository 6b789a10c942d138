import { type Actor, type ContactDataSummary, type ContactErased, can, confirmsContact, type Permission } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import { zipStream } from "../../lib/zip-stream.js";
import type { MediaStorage } from "../../media/storage.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { findContactById, lockContact } from "../contacts/contacts.repo.js";
import { scopeOf } from "../tickets/tickets.service.js";
import {
  type ContactRow,
  countContactData,
  eraseContactRows,
  forgetFileRemovals,
  isUnderLegalHold,
  queueFileRemovals,
  refreshGroupPreview,
  ticketsOf,
} from "./erase.repo.js";
import { contactArchive } from "./export-archive.js";

export interface ContactDataDeps {
  db: Db;
  storage: MediaStorage;
  events: Publisher;
  clock?: Clock;
  /** Publish a group ticket whose preview changed (the tickets service presents it). */
  announceTicket?(id: number): Promise<void>;
}

/**
 * Issue 22 §2: a customer's data on request (LGPD art. 18). Export streams everything held about
 * one contact as a zip; erase removes it everywhere in one transaction, then its files, and leaves
 * in the audit trail only that it happened, by whom, when, and how much (never the name or number).
 */
export function createContactDataService(deps: ContactDataDeps) {
  const { db, storage, events } = deps;
  const clock = deps.clock ?? systemClock;

  async function person(actor: Actor, id: number, permission: Permission): Promise<ContactRow> {
    if (!can(actor, permission)) throw new AppError("ERR_NO_PERMISSION");
    const contact = await findContactById(db, id);
    if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
    if (contact.isGroup) throw new AppError("ERR_CONTACT_IS_GROUP");
    return contact;
  }

  return {
    /** What an erasure would remove now. */
    async summary(actor: Actor, id: number): Promise<ContactDataSummary> {
      await person(actor, id, "contacts:erase");
      return { ...(await countContactData(db, id)), legalHold: await isUnderLegalHold(db, id) };
    },

    /**
     * The archive's bytes as the client reads them. Everything that can refuse (permission, a
     * missing contact, a group) is checked before the first byte; the export is recorded then.
     */
    async export(actor: Actor, id: number): Promise<{ fileName: string; body: AsyncIterable<Buffer> }> {
      await person(actor, id, "contacts:exportData");
      await recordAudit(db, { action: "contact.dataExported", targetType: "contact", targetId: id });
      const now = clock.now();
      return {
        fileName: `contact-${id}-${now.toISOString().slice(0, 10)}.zip`,
        body: zipStream(contactArchive({ db, storage }, id, now), now),
      };
    },

    async erase(actor: Actor, id: number, confirm: string): Promise<ContactErased> {
      if (!can(actor, "contacts:erase")) throw new AppError("ERR_NO_PERMISSION");
      const outcome = await db.transaction(async (tx) => {
        const contact = await lockContact(tx, id);
        if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
        if (contact.isGroup) throw new AppError("ERR_CONTACT_IS_GROUP");
        if (!confirmsContact(contact, confirm)) throw new AppError("ERR_CONTACT_ERASE_CONFIRM");
        // A hold means something must be kept (a lawsuit, an investigation): it is released first, on purpose.
        if (await isUnderLegalHold(tx, id)) throw new AppError("ERR_CONTACT_LEGAL_HOLD");
        // Open and pending conversations go with the rest: nothing is sent to the customer (no
        // farewell, no rating question), and agents see them leave their lists at once.
        const tickets = await ticketsOf(tx, id, true);
        const rows = await eraseContactRows(
          tx,
          contact,
          tickets.map((t) => t.id),
        );
        for (const ticketId of rows.groupTicketIds) await refreshGroupPreview(tx, ticketId);
        const files = await queueFileRemovals(tx, rows.mediaPaths);
        // Counts only: the trail cannot be erased, so it never holds who the person was.
        await recordAudit(tx, { action: "contact.erased", targetType: "contact", targetId: id, details: rows.erased });
        return { ...rows, tickets, files };
      });

      // After commit: the queued files, then the screens. A file the storage cannot remove now stays
      // queued for the next retention sweep (its random name is all that is left; no row names it).
      const removed: string[] = [];
      for (const file of outcome.files) {
        await storage.remove(file.path).then(
          () => removed.push(file.id),
          () => {},
        );
      }
      await forgetFileRemovals(db, removed).catch(() => {});
      const filesNotRemoved = outcome.files.length - removed.length;
      for (const ticket of outcome.tickets)
        events.publishTicket("ticket", { action: "delete", ticketId: ticket.id }, scopeOf(ticket));
      events.publish("contact", { action: "delete", contactId: id });
      for (const ticketId of outcome.groupTicketIds) await deps.announceTicket?.(ticketId).catch(() => {});
      return { erased: outcome.erased, filesNotRemoved };
    },
  };
}

export type ContactDataService = ReturnType<typeof createContactDataService>;
