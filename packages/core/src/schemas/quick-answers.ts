import { z } from "zod";
import { listQuerySchema, requiredText } from "./common.js";

export const quickAnswerInputSchema = z.strictObject({
  shortcut: requiredText(2, 15),
  message: requiredText(8, 30000),
});
export type QuickAnswerInput = z.input<typeof quickAnswerInputSchema>;
export const quickAnswerUpdateSchema = quickAnswerInputSchema.partial();

export const quickAnswerListQuerySchema = listQuerySchema;

export const quickAnswerSchema = z.object({ id: z.number(), shortcut: z.string(), message: z.string() });
export type QuickAnswer = z.infer<typeof quickAnswerSchema>;

export const quickAnswerListSchema = z.object({
  quickAnswers: z.array(quickAnswerSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
