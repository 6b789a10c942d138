import { z } from "zod";
import { MSG, requiredCheck, requiredText } from "./common.js";

export const queueInputSchema = z.strictObject({
  name: requiredText(2, 50),
  color: z.string({ error: MSG.required }).trim().min(1, requiredCheck).min(3, MSG.tooShort).max(9, MSG.tooLong),
  greetingMessage: z
    .string()
    .max(30000, MSG.tooLong)
    .nullish()
    .transform((v) => v ?? ""),
});
export type QueueInput = z.input<typeof queueInputSchema>;

export const queueUpdateSchema = queueInputSchema.partial();

export const queueLiteSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });

export const queueSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Queue = z.infer<typeof queueSchema>;
