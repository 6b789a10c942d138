import { z } from "zod";

/**
 * Issue 22 §1: retention. A policy removes, N days after a ticket was closed, either its media
 * files (the messages stay, marked) or its messages with their files. The default policy applies
 * to every queue without one of its own (and to tickets without a queue); a queue's own policy
 * replaces it, and a disabled one keeps that queue's conversations forever. A legal hold on a
 * contact or a ticket suspends every policy for it.
 *
 * `anonymise` removes the messages and their files like `messages`, then, once every ticket of the
 * contact is due under an `anonymise` policy and nothing else refers to the person (no open or
 * pending ticket, no legal hold, no scheduled message or CSAT question waiting, nothing they wrote
 * in a group), anonymises the contact: the tickets and ratings stay for the reports, nothing says
 * who the customer was (docs/privacy.md).
 */
export const RETENTION_REMOVE = ["media", "messages", "anonymise"] as const;
export type RetentionRemove = (typeof RETENTION_REMOVE)[number];

export const retentionPolicySchema = z.strictObject({
  /** null: the default policy. */
  queueId: z.number().int().positive().nullable(),
  enabled: z.boolean(),
  /** Days after the ticket's close. */
  days: z.number().int().min(1).max(3650),
  remove: z.enum(RETENTION_REMOVE),
});
export type RetentionPolicy = z.infer<typeof retentionPolicySchema>;

export const retentionQueueParamsSchema = z.strictObject({ queueId: z.coerce.number().int().positive() });

/** What a sweep removed (a run) or what a policy would remove today (a preview). */
export const retentionCountsSchema = z.object({
  tickets: z.number().int(),
  messages: z.number().int(),
  files: z.number().int(),
  /** Contacts anonymised (or that would be). */
  contacts: z.number().int(),
});
export type RetentionCounts = z.infer<typeof retentionCountsSchema>;

export const retentionRunSchema = retentionCountsSchema.extend({ at: z.string() });
export type RetentionRun = z.infer<typeof retentionRunSchema>;

export const retentionOverviewSchema = z.object({
  /** The default policy and every queue's own one. */
  policies: z.array(retentionPolicySchema),
  /** The last sweep that removed anything (any process), from the audit trail. */
  lastRun: retentionRunSchema.nullable(),
});
export type RetentionOverview = z.infer<typeof retentionOverviewSchema>;

/** A legal hold: exactly one of contact or ticket. */
export const legalHoldInputSchema = z
  .strictObject({
    contactId: z.number().int().positive().optional(),
    ticketId: z.number().int().positive().optional(),
    reason: z.string().trim().max(500).default(""),
  })
  .refine((v) => (v.contactId === undefined) !== (v.ticketId === undefined), {
    message: "Give either contactId or ticketId",
  });
export type LegalHoldInput = z.input<typeof legalHoldInputSchema>;

export const legalHoldQuerySchema = z.strictObject({
  contactId: z.coerce.number().int().positive().optional(),
  ticketId: z.coerce.number().int().positive().optional(),
});

export const legalHoldSchema = z.object({
  id: z.number(),
  contactId: z.number().nullable(),
  ticketId: z.number().nullable(),
  reason: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type LegalHold = z.infer<typeof legalHoldSchema>;

/** What an anonymised contact is called (its number becomes `anonymised:<id>`, which no channel sends). */
export const ANONYMISED_CONTACT_NAME = "Anonymised";
