import type { Db } from "../../db/client.js";
import type { Publisher } from "../../realtime/publisher.js";
import { findContactById, listExtraInfo } from "../contacts/contacts.repo.js";
import { presentContact } from "../contacts/contacts.service.js";
import { tagsOfContact } from "../tags/tags.repo.js";
import { ownersOf } from "./owners.js";

/** Tell every screen that the contact changed (its owner did), after the commit. */
export async function publishContact(db: Db, events: Publisher, contactId: number): Promise<void> {
  const row = await findContactById(db, contactId);
  if (!row) return;
  const contact = presentContact(
    row,
    await listExtraInfo(db, contactId),
    await tagsOfContact(db, contactId),
    await ownersOf(db, [row]),
  );
  events.publish("contact", { action: "update", contact });
}
