import { z } from "zod";
import { idSchema, listQuerySchema, MSG, optionalEmailSchema, requiredText } from "./common.js";
import { tagIdsSchema, tagSchema } from "./tags.js";

/** Keep digits only: customers and agents type numbers as "+55 (11) 9999-0000". */
export function normaliseNumber(raw: string): string {
  return raw.replace(/[\s+()\-.]/g, "");
}

export const contactNumberSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .transform(normaliseNumber)
  .pipe(z.string().min(8, MSG.tooShort).max(50, MSG.tooLong).regex(/^\d+$/, MSG.invalidNumber));

export const extraInfoInputSchema = z.strictObject({
  id: z.number().int().positive().max(2147483647).optional(),
  name: requiredText(1, 100),
  value: z.string().trim().max(1000, MSG.tooLong),
});

export const contactInputSchema = z.strictObject({
  name: requiredText(2, 50),
  number: contactNumberSchema,
  email: optionalEmailSchema.optional().default(""),
  extraInfo: z.array(extraInfoInputSchema).max(50).optional(),
});
export type ContactInput = z.input<typeof contactInputSchema>;

export const contactUpdateSchema = z.strictObject({
  name: requiredText(2, 50).optional(),
  number: contactNumberSchema.optional(),
  email: optionalEmailSchema.optional(),
  extraInfo: z.array(extraInfoInputSchema).max(50).optional(),
  /** Issue 11: the contact's tags, the whole set. */
  tagIds: tagIdsSchema.optional(),
});

/**
 * Issue 23 §5: the contacts of one owner: "me" (the user asking), "none" (no owner) or a user id.
 */
export const contactOwnerFilterSchema = z
  .string()
  .regex(/^(me|none|[1-9]\d{0,9})$/, "Invalid owner")
  .transform((v): "me" | "none" | number => (v === "me" || v === "none" ? v : Number(v)));

export const contactListQuerySchema = listQuerySchema.extend({ owner: contactOwnerFilterSchema.optional() });
export type ContactListQuery = z.output<typeof contactListQuerySchema>;

export const extraInfoSchema = z.object({ id: z.number(), name: z.string(), value: z.string() });

export const contactSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  /** Issue 18: the customer's WhatsApp username (Cloud API), shown beside or instead of a number Meta withholds. */
  username: z.string().nullable().optional(),
  extraInfo: z.array(extraInfoSchema).optional(),
  /** Issue 11: the contact's tags. */
  tags: z.array(tagSchema),
  /** Issue 23 §5: the agent whose customer this is (they get its new conversations first); null: none. */
  ownerId: z.number().nullable().optional(),
  /** The owner's name, where the server read it (the contact page and drawer). */
  owner: z.object({ id: z.number(), name: z.string() }).nullable().optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Contact = z.infer<typeof contactSchema>;

export const contactLiteSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  profilePicUrl: z.string(),
  /** Issue 23 §5: the contact's owner (absent where the server did not read it, e.g. a batch of inbound messages). */
  ownerId: z.number().nullable().optional(),
});

export const contactListSchema = z.object({
  contacts: z.array(contactSchema),
  count: z.number(),
  hasMore: z.boolean(),
  /** Issue 24: a search counts up to a cap; true: there are more than `count`. */
  countCapped: z
    .boolean()
    .optional()
    .describe(
      "Searches only: the count stopped at its cap, so there are more than `count` matches (hasMore still pages to the end).",
    ),
});

/** One recorded change of a contact's number (GET /contacts/:id/changes, admins only). */
export const contactChangeSchema = z.object({
  id: z.number(),
  contactId: z.number(),
  /** Who changed it; null once that user is deleted (userName stays). */
  userId: z.number().nullable(),
  userName: z.string(),
  oldNumber: z.string(),
  newNumber: z.string(),
  createdAt: z.iso.datetime(),
});
export type ContactChange = z.infer<typeof contactChangeSchema>;

export const contactChangeListSchema = z.object({ changes: z.array(contactChangeSchema) });

/**
 * Issue 18, POST /contacts/:id/merge (admins): the duplicate is folded into contact :id, which
 * stays with its number; the duplicate's tickets, messages, notes, tags and schedules follow it.
 */
export const contactMergeSchema = z.strictObject({ duplicateId: idSchema });
export type ContactMergeInput = z.input<typeof contactMergeSchema>;
