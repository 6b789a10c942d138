import { z } from "zod";
import { closingValueSchema } from "./closing-reasons.js";
import { idSchema, MSG, requiredText } from "./common.js";
import { MESSAGE_MAX_LENGTH, templateSendSchema } from "./messages.js";

/**
 * Issue 23 §1–§2: the actions a macro (and later an automation rule) runs on a ticket. One list,
 * one schema: what a macro stores is what the executor (server `modules/automation/actions.ts`)
 * runs, each action through the service an agent's own click goes through.
 */
export const ACTION_TYPES = [
  "assignAgent",
  "assignQueue",
  "addTag",
  "removeTag",
  "sendMessage",
  "sendTemplate",
  "addNote",
  "resolve",
  "returnToQueue",
  "setContactField",
  "callWebhook",
  "setContactOwner",
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** The most actions one list holds. */
export const ACTIONS_MAX = 20;

const textBody = z
  .string()
  .max(MESSAGE_MAX_LENGTH, MSG.tooLong)
  .refine((v) => v.trim().length > 0, MSG.required);

export const actionSchema = z.discriminatedUnion("type", [
  /** Open and pending tickets go to the agent (a closed one is reopened for them). */
  z.strictObject({ type: z.literal("assignAgent"), userId: idSchema }),
  /** To a queue's waiting list (pending, no agent). */
  z.strictObject({ type: z.literal("assignQueue"), queueId: idSchema }),
  z.strictObject({ type: z.literal("addTag"), tagId: idSchema }),
  z.strictObject({ type: z.literal("removeTag"), tagId: idSchema }),
  /** A message to the customer, through the outbox (sent once everything committed). */
  z.strictObject({ type: z.literal("sendMessage"), body: textBody }),
  /** An approved template of the ticket's Cloud API connection, with its variables. */
  templateSendSchema.extend({ type: z.literal("sendTemplate") }).strict(),
  /** A private note, for colleagues only. */
  z.strictObject({ type: z.literal("addNote"), body: textBody }),
  /** Resolve: the queue's closing-reason rule applies as at any close. */
  z.strictObject({
    type: z.literal("resolve"),
    closingReasonId: idSchema.nullable().optional(),
    closingValue: closingValueSchema.nullable().optional(),
  }),
  z.strictObject({ type: z.literal("returnToQueue") }),
  /** A field of the ticket's contact (its extra information), by name: replaced, or added when missing. */
  z.strictObject({
    type: z.literal("setContactField"),
    name: requiredText(1, 100),
    value: z.string().trim().max(1000, MSG.tooLong),
  }),
  /** One delivery of the ticket to an outbound webhook (signed and retried like every delivery). */
  z.strictObject({ type: z.literal("callWebhook"), webhookId: idSchema }),
  /**
   * Issue 23 §5: the ticket's contact gets this owner (null: none); `onlyIfNone` leaves an owned contact
   * as it is. Without contacts:setOwner the runner may only take an unowned contact for themself.
   */
  z.strictObject({ type: z.literal("setContactOwner"), userId: idSchema.nullable(), onlyIfNone: z.boolean().default(false) }),
]);
export type Action = z.output<typeof actionSchema>;
export type ActionInput = z.input<typeof actionSchema>;

export const actionListSchema = z.array(actionSchema).min(1, MSG.required).max(ACTIONS_MAX);

/** What one action did, as the run answers it. */
export const actionResultSchema = z.object({
  index: z.number(),
  type: z.enum(ACTION_TYPES),
  /** "done": applied; "unchanged": nothing to do (the tag was already there, the field had that value). */
  outcome: z.enum(["done", "unchanged"]),
  /** What was created or changed, by id (the message, the note, the delivery), when there is one. */
  messageIds: z.array(z.number()).optional(),
  deliveryId: z.number().optional(),
});
export type ActionResult = z.infer<typeof actionResultSchema>;
