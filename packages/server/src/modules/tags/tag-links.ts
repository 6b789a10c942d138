import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import * as repo from "./tags.repo.js";

/**
 * Lock the named tags (FOR KEY SHARE) and refuse unknown ids: a set of tags
 * naming a tag that does not exist (or was just deleted) is ERR_NO_TAG_FOUND, nothing written.
 */
async function checkTagIds(tx: Db, tagIds: number[]): Promise<void> {
  const known = await repo.existingTagIds(tx, tagIds);
  const missing = tagIds.filter((id) => !known.has(id));
  if (missing.length) throw new AppError("ERR_NO_TAG_FOUND", { message: `Unknown tag ids: ${missing.join(", ")}` });
}

/** Set a ticket's tags, the whole set (the caller holds the transaction and checked access). */
export async function setTicketTags(tx: Db, ticketId: number, tagIds: number[]): Promise<void> {
  await checkTagIds(tx, tagIds);
  await repo.replaceTicketTags(tx, ticketId, tagIds);
}

/** Set a contact's tags, the whole set (the caller holds the transaction and checked the edit rule). */
export async function setContactTags(tx: Db, contactId: number, tagIds: number[]): Promise<void> {
  await checkTagIds(tx, tagIds);
  await repo.replaceContactTags(tx, contactId, tagIds);
}
