import { z } from "zod";
import { CONNECTION_PROVIDERS, CONNECTION_STATUSES } from "../constants.js";
import { MSG, queueIdsSchema, requiredText } from "./common.js";
import { queueLiteSchema } from "./queues.js";

const optionalMessage = z
  .string()
  .max(30000, MSG.tooLong)
  .nullish()
  .transform((v) => v ?? "");

export const connectionInputSchema = z.strictObject({
  name: requiredText(2, 50),
  provider: z.enum(CONNECTION_PROVIDERS).default("baileys"),
  greetingMessage: optionalMessage,
  farewellMessage: optionalMessage,
  isDefault: z.boolean().default(false),
  queueIds: queueIdsSchema.default([]),
});
export type ConnectionInput = z.input<typeof connectionInputSchema>;

export const connectionUpdateSchema = z.strictObject({
  name: requiredText(2, 50).optional(),
  greetingMessage: optionalMessage.optional(),
  farewellMessage: optionalMessage.optional(),
  isDefault: z.boolean().optional(),
  queueIds: queueIdsSchema.optional(),
});

export const connectionSchema = z.object({
  id: z.number(),
  name: z.string(),
  provider: z.enum(CONNECTION_PROVIDERS),
  status: z.enum(CONNECTION_STATUSES),
  /** The QR payload: an empty string for anyone but an admin. */
  qrcode: z.string(),
  retries: z.number(),
  isDefault: z.boolean(),
  greetingMessage: z.string(),
  farewellMessage: z.string(),
  updatedAt: z.iso.datetime(),
  queues: z.array(queueLiteSchema),
});
export type Connection = z.infer<typeof connectionSchema>;
