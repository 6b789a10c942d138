import { z } from "zod";
import { normaliseNumber } from "./contacts.js";

/**
 * Issue 22 §2: a customer's data on request. What an erasure would remove (shown before the admin
 * confirms) and what it removed (its answer, and the counts kept in the audit trail).
 */
export const contactDataCountsSchema = z.object({
  /** Conversations of the contact, and how many of them are still pending or open. */
  tickets: z.number(),
  activeTickets: z.number(),
  /** Messages of those conversations (private notes included), plus what they wrote in groups. */
  messages: z.number(),
  notes: z.number(),
  groupMessages: z.number(),
  /** Stored files (received, sent, scheduled). */
  mediaFiles: z.number(),
  scheduledMessages: z.number(),
  ratings: z.number(),
});
export type ContactDataCounts = z.infer<typeof contactDataCountsSchema>;

/** The dialog's view before an erasure: the counts, and whether a legal hold forbids it now. */
export const contactDataSummarySchema = contactDataCountsSchema.extend({ legalHold: z.boolean() });
export type ContactDataSummary = z.infer<typeof contactDataSummarySchema>;

export const contactEraseSchema = z.strictObject({
  /** The contact's name or number typed again by the admin, as a check that this is the person meant. */
  confirm: z.string().trim().min(1).max(200),
});
export type ContactEraseInput = z.infer<typeof contactEraseSchema>;

export const contactErasedSchema = z.object({
  /** What was removed; the same counts are in the audit trail (without the name or number). */
  erased: contactDataCountsSchema.extend({
    webhookDeliveries: z.number(),
    inboundEvents: z.number(),
    importMappings: z.number(),
    lidMappings: z.number(),
  }),
  /** Files the storage could not remove just now: they stay queued (media_deletions) for the next retention sweep. */
  filesNotRemoved: z.number(),
});
export type ContactErased = z.infer<typeof contactErasedSchema>;

/**
 * The erase dialog's check, on both sides: what the admin typed names this contact, by its name
 * (any case, spaces around ignored) or its number (punctuation ignored, "+55 (11) 9…" works).
 */
export function confirmsContact(contact: { name: string; number: string }, typed: string): boolean {
  const text = typed.trim();
  if (text !== "" && text.toLocaleLowerCase() === contact.name.trim().toLocaleLowerCase()) return true;
  const digits = normaliseNumber(text);
  return /^\d+$/.test(digits) && digits === contact.number;
}
