import { z } from "zod";
import { actionListSchema, actionResultSchema, actionSchema } from "./automation.js";
import { idParam, requiredText } from "./common.js";
import { ticketSchema } from "./tickets.js";

/**
 * Issue 23 §2: macros, named lists of actions an agent runs on a ticket in one click. A personal
 * macro belongs to its author (only they see, edit and run it); a shared one is for everyone and
 * is written by those with `macros:manage`.
 */
export const macroInputSchema = z.strictObject({
  name: requiredText(1, 60),
  /** Shared with everyone (needs `macros:manage`); otherwise the author's own. */
  shared: z.boolean().default(false),
  actions: actionListSchema,
});
export type MacroInput = z.input<typeof macroInputSchema>;

export const macroUpdateSchema = z.strictObject({
  name: requiredText(1, 60).optional(),
  shared: z.boolean().optional(),
  actions: actionListSchema.optional(),
});
export type MacroUpdate = z.output<typeof macroUpdateSchema>;

export const macroSchema = z.object({
  id: z.number(),
  name: z.string(),
  shared: z.boolean(),
  /** The author of a personal macro; null for a shared one. */
  ownerId: z.number().nullable(),
  actions: z.array(actionSchema),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Macro = z.infer<typeof macroSchema>;

export const macroListSchema = z.object({ macros: z.array(macroSchema) });

export const macroRunParamsSchema = z.strictObject({ id: idParam, macroId: idParam });

/** What a run did: every action in order, and the ticket as it is after them. */
export const macroRunResultSchema = z.object({
  macroId: z.number(),
  results: z.array(actionResultSchema),
  /** Null when the run moved the ticket out of the runner's reach (a transfer). */
  ticket: ticketSchema.nullable(),
});
export type MacroRunResult = z.infer<typeof macroRunResultSchema>;
