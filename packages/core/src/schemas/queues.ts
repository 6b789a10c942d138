import { z } from "zod";
import { businessHoursOutputSchema, businessHoursSchema } from "./business-hours.js";
import { CLOSING_REASON_MODES } from "./closing-reasons.js";
import { MSG, requiredCheck, requiredText } from "./common.js";

export const queueInputSchema = z.strictObject({
  name: requiredText(2, 50),
  color: z.string({ error: MSG.required }).trim().min(1, requiredCheck).min(3, MSG.tooShort).max(9, MSG.tooLong),
  greetingMessage: z
    .string()
    .max(30000, MSG.tooLong)
    .nullish()
    .transform((v) => v ?? ""),
  /** Business hours (issue 11): null or absent = always open. */
  schedule: businessHoursSchema.nullish().transform((v) => v ?? null),
  /** Issue 23 §6: whether Resolve and Protocolo ask for a closing reason (absent on create: "off"). */
  closingReason: z.enum(CLOSING_REASON_MODES).optional(),
});
export type QueueInput = z.input<typeof queueInputSchema>;

export const queueUpdateSchema = queueInputSchema.partial();

export const queueLiteSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });

export const queueSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  schedule: businessHoursOutputSchema.nullable(),
  closingReason: z.enum(CLOSING_REASON_MODES),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Queue = z.infer<typeof queueSchema>;
