import { z } from "zod";
import { CONSENT_KINDS, CONSENT_WORD_MAX_LENGTH, CONSENT_WORDS_MAX } from "../consent.js";
import { idSchema, MSG } from "./common.js";

/** Issue 22 §3: consent and opt-out settings, and a contact's consent records (docs/privacy.md). */

const word = z.string().trim().min(1, MSG.required).max(CONSENT_WORD_MAX_LENGTH, MSG.tooLong);
/** A list of words a customer may answer with (matched whole, case and accents aside). */
export const consentWordsSchema = z.array(word).min(1).max(CONSENT_WORDS_MAX);

const privacyUrl = z
  .string()
  .trim()
  .max(2000, MSG.tooLong)
  .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), MSG.invalidUrl);

/** The consent message of one connection or one queue. */
export const consentConfigInputSchema = z.strictObject({
  /** Exactly one of the two: the connection or the queue the message is for. */
  whatsappId: idSchema.nullable().default(null),
  queueId: idSchema.nullable().default(null),
  enabled: z.boolean().default(true),
  /** What the customer reads; `{{link}}` is replaced by the privacy notice's address, `{{name}}` by theirs. */
  message: z.string().trim().min(1, MSG.required).max(2000, MSG.tooLong),
  privacyUrl: privacyUrl.default(""),
  acceptWords: consentWordsSchema,
  declineWords: consentWordsSchema,
});
export type ConsentConfigInput = z.input<typeof consentConfigInputSchema>;

export const consentConfigUpdateSchema = z.strictObject({
  enabled: z.boolean().optional(),
  message: z.string().trim().min(1, MSG.required).max(2000, MSG.tooLong).optional(),
  privacyUrl: privacyUrl.optional(),
  acceptWords: consentWordsSchema.optional(),
  declineWords: consentWordsSchema.optional(),
});
export type ConsentConfigUpdate = z.output<typeof consentConfigUpdateSchema>;

export const consentConfigSchema = z.object({
  id: z.number(),
  whatsappId: z.number().nullable(),
  queueId: z.number().nullable(),
  enabled: z.boolean(),
  message: z.string(),
  privacyUrl: z.string(),
  acceptWords: z.array(z.string()),
  declineWords: z.array(z.string()),
  updatedAt: z.iso.datetime(),
});
export type ConsentConfig = z.infer<typeof consentConfigSchema>;

export const optOutWordsSchema = z.strictObject({ words: consentWordsSchema });
export type OptOutWords = z.infer<typeof optOutWordsSchema>;

export const consentSettingsSchema = z.object({
  /** Install-wide: a customer who writes one of these gets no automatic message until they write again. */
  optOutWords: z.array(z.string()),
  configs: z.array(consentConfigSchema),
});
export type ConsentSettings = z.infer<typeof consentSettingsSchema>;

export const consentRecordSchema = z.object({
  id: z.number(),
  kind: z.enum(CONSENT_KINDS),
  whatsappId: z.number().nullable(),
  /** The connection's name when the record was read (null: the connection was deleted). */
  connection: z.string().nullable(),
  queueId: z.number().nullable(),
  queue: z.string().nullable(),
  ticketId: z.number().nullable(),
  /** The WhatsApp id of the message: the customer's answer, or our question for `asked`. */
  messageWid: z.string().nullable(),
  /** The words the customer wrote (answers and opt-outs). */
  text: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type ConsentRecord = z.infer<typeof consentRecordSchema>;

export const contactConsentSchema = z.object({
  contactId: z.number(),
  /** Since when automatic messages are not sent to the customer; null: they are. */
  optedOutSince: z.iso.datetime().nullable(),
  /** Newest first. */
  records: z.array(consentRecordSchema),
});
export type ContactConsent = z.infer<typeof contactConsentSchema>;
