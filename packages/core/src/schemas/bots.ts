import { z } from "zod";
import { idSchema, MSG } from "./common.js";

/** Issue 23 §4: bots that hand over (docs/bots.md). */
export const BOT_KINDS = ["typebot", "webhook"] as const;
export type BotKind = (typeof BOT_KINDS)[number];

/** The Typebot variable a flow sets to hand over: "queue:<id>", "agent:<id>" or "close". */
export const HANDOVER_VARIABLE = "zapdesk_handover";

/** The words that hand over to a person until an admin changes them (pt, en, es). */
export const DEFAULT_HANDOVER_WORDS = [
  "atendente",
  "humano",
  "pessoa",
  "falar com atendente",
  "agent",
  "human",
  "person",
  "agente",
  "persona",
];

const urlText = z.string({ error: MSG.required }).trim().min(1, MSG.required).max(2000, MSG.tooLong).pipe(z.url(MSG.invalidUrl));
const name = z.string().trim().min(1, MSG.required).max(100, MSG.tooLong);
export const botVariableSchema = z.strictObject({ field: name, variable: name });

const common = {
  /** Contact fields ("name", "number", "email" or an extra field's name) passed as prefilledVariables. */
  variablesIn: z.array(botVariableSchema).max(50).default([]),
  /** Bot variables written into contact fields when the bot hands over. */
  variablesOut: z.array(botVariableSchema).max(50).default([]),
  /** Whole messages that hand the ticket to a person at once. */
  handoverWords: z.array(z.string().trim().min(1).max(60)).max(50).default(DEFAULT_HANDOVER_WORDS),
  /** Minutes without a customer message before the queue takes the ticket back. */
  timeoutMinutes: z.number().int().min(1).max(1440).default(30),
};

export const botConfigInputSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("typebot"),
    baseUrl: urlText,
    publicId: z.string().trim().min(1, MSG.required).max(200, MSG.tooLong),
    /** Absent: keep the stored token; null or "": remove it. */
    apiToken: z.string().trim().max(500, MSG.tooLong).nullish(),
    ...common,
  }),
  z.strictObject({ kind: z.literal("webhook"), webhookUrl: urlText, ...common }),
]);
export type BotConfigInput = z.input<typeof botConfigInputSchema>;

export const botConfigSchema = z.object({
  queueId: z.number(),
  kind: z.enum(BOT_KINDS),
  baseUrl: z.string().nullable(),
  publicId: z.string().nullable(),
  /** Whether a Typebot API token is stored (it is never sent back). */
  apiToken: z.enum(["set", "not set"]),
  webhookUrl: z.string().nullable(),
  variablesIn: z.array(botVariableSchema),
  variablesOut: z.array(botVariableSchema),
  handoverWords: z.array(z.string()),
  timeoutMinutes: z.number(),
  /** The webhook bot's signing secret: only in the answer that created it. */
  secret: z.string().optional(),
  updatedAt: z.iso.datetime(),
});
export type BotConfig = z.infer<typeof botConfigSchema>;

/** GET /queue/:id/bot: null when the queue has no bot. */
export const botConfigOrNullSchema = botConfigSchema.nullable();

export const handoverInputSchema = z.discriminatedUnion("to", [
  z.strictObject({ to: z.literal("queue"), queueId: idSchema.optional() }),
  z.strictObject({ to: z.literal("agent"), userId: idSchema }),
  z.strictObject({ to: z.literal("close") }),
]);
export type HandoverInput = z.infer<typeof handoverInputSchema>;

/** A webhook bot's answer to the customer (POST /tickets/:id/bot/messages). */
export const botMessageInputSchema = z.strictObject({
  body: z.string().trim().min(1, MSG.required).max(4096, MSG.tooLong),
});

export const botHandoverResultSchema = z.object({ ticketId: z.number(), to: z.enum(["queue", "agent", "close"]) });
