import { z } from "zod";
import { idSchema, requiredText } from "./common.js";
import { metricsQuerySchema } from "./metrics.js";

/**
 * Issue 23 §6: closing reasons. A queue asks for one at Resolve and Protocolo: never ("off"), as
 * an option ("optional"), or always ("required": the server refuses a close without one).
 */
export const CLOSING_REASON_MODES = ["off", "optional", "required"] as const;
export type ClosingReasonMode = (typeof CLOSING_REASON_MODES)[number];

/** The largest value a reason records (numeric(14,2)). */
export const CLOSING_VALUE_MAX = 999_999_999_999.99;

/** A value (e.g. a sale amount): zero or more, at most two decimals. */
export const closingValueSchema = z
  .number()
  .finite()
  .min(0)
  .max(CLOSING_VALUE_MAX)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "At most two decimals");

export const closingReasonInputSchema = z.strictObject({
  name: requiredText(1, 60),
  /** The reason asks for a value at close (and then needs one). */
  asksValue: z.boolean().default(false),
});
export type ClosingReasonInput = z.input<typeof closingReasonInputSchema>;

/** Any subset; `archived`: no longer offered for new closes, kept on old tickets and in reports. */
export const closingReasonUpdateSchema = z.strictObject({
  name: requiredText(1, 60).optional(),
  asksValue: z.boolean().optional(),
  archived: z.boolean().optional(),
});
export type ClosingReasonUpdate = z.output<typeof closingReasonUpdateSchema>;

export const closingReasonSchema = z.object({
  id: z.number(),
  name: z.string(),
  asksValue: z.boolean(),
  archived: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ClosingReason = z.infer<typeof closingReasonSchema>;

export const closingReasonListSchema = z.object({ closingReasons: z.array(closingReasonSchema) });

/**
 * What a close carries (PUT /tickets/:id with status "closed", POST /tickets/:id/protocol, the
 * API token's close): a reason, and its value when the reason asks for one.
 */
export const closingChoiceSchema = z.strictObject({
  closingReasonId: idSchema.nullable().optional(),
  closingValue: closingValueSchema.nullable().optional(),
});
export type ClosingChoice = z.output<typeof closingChoiceSchema>;

/** The reason a ticket was last closed with (kept when it is reopened, replaced at its next close). */
export const ticketClosingSchema = z.object({
  id: z.number(),
  name: z.string(),
  archived: z.boolean(),
  value: z.number().nullable(),
  at: z.iso.datetime(),
});
export type TicketClosing = z.infer<typeof ticketClosingSchema>;

/** GET /dashboard/closing-reasons: the metrics' period and filters (closes in the period). */
export const closingReportQuerySchema = metricsQuerySchema;

const reportFigures = { count: z.number(), total: z.number().nullable() };
const reasonKey = { reasonId: z.number(), name: z.string(), archived: z.boolean(), asksValue: z.boolean() };

export const closingReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  tz: z.string(),
  /** Per reason, over every queue and agent; `total` sums the values (null when none was given). */
  byReason: z.array(z.object({ ...reasonKey, ...reportFigures })),
  byQueue: z.array(
    z.object({ queueId: z.number().nullable(), queueName: z.string().nullable(), ...reasonKey, ...reportFigures }),
  ),
  byUser: z.array(z.object({ userId: z.number().nullable(), userName: z.string().nullable(), ...reasonKey, ...reportFigures })),
});
export type ClosingReport = z.infer<typeof closingReportSchema>;

/** GET /tickets/export: the tickets last closed in a period (the dashboard's filters), as CSV. */
export const ticketExportQuerySchema = metricsQuerySchema;
