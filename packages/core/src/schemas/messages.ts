import { z } from "zod";
import { MEDIA_TYPES } from "../constants.js";
import { MSG, pageNumberSchema } from "./common.js";
import { contactLiteSchema } from "./contacts.js";
import { ticketSchema } from "./tickets.js";

export const MESSAGE_MAX_LENGTH = 30000;

export const messageListQuerySchema = z.strictObject({ pageNumber: pageNumberSchema });

export const ticketIdParamsSchema = z.strictObject({ ticketId: z.coerce.number().int().positive().max(2147483647) });

/** JSON send (spec §7): body and an optional quoted message; read/fromMe/mediaUrl are accepted and ignored. */
export const messageSendSchema = z.strictObject({
  body: z
    .string()
    .max(MESSAGE_MAX_LENGTH, MSG.tooLong)
    .refine((v) => v.trim().length > 0, MSG.required),
  quotedMsg: z
    .object({ id: z.number().int().positive().max(2147483647) })
    .loose()
    .nullish(),
  read: z.unknown().optional(),
  fromMe: z.unknown().optional(),
  mediaUrl: z.unknown().optional(),
});
export type MessageSendInput = z.output<typeof messageSendSchema>;

/** Whaticket-compatible API send (token auth): number and body, optional media through multipart. */
export const apiSendSchema = z.strictObject({
  number: z
    .string()
    .trim()
    .transform((v) => v.replace(/[\s+()\-.]/g, ""))
    .pipe(z.string().regex(/^\d{8,20}$/, MSG.invalidNumber)),
  body: z.string().max(MESSAGE_MAX_LENGTH, MSG.tooLong).default(""),
});

export const quotedMessageSchema = z.object({
  id: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.enum(MEDIA_TYPES),
  isDeleted: z.boolean(),
  contact: contactLiteSchema.nullable(),
});

export const messageSchema = z.object({
  id: z.number(),
  ticketId: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  read: z.boolean(),
  ack: z.number(),
  mediaType: z.enum(MEDIA_TYPES),
  mediaUrl: z.string().nullable(),
  /** The stored file name, for downloads. */
  mediaName: z.string().nullable(),
  /** Set when WhatsApp media could not be fetched; the message is kept and the download retried. */
  mediaError: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  fromBot: z.boolean(),
  createdAt: z.iso.datetime(),
  contact: contactLiteSchema.nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  quotedMsg: quotedMessageSchema.nullable(),
});
export type Message = z.infer<typeof messageSchema>;

export const messageListSchema = z.object({
  messages: z.array(messageSchema),
  ticket: ticketSchema,
  count: z.number(),
  hasMore: z.boolean(),
});

export const resolveContactSchema = z.strictObject({
  name: z.string().trim().min(1, MSG.required).max(50, MSG.tooLong),
  number: z
    .string()
    .trim()
    .transform((v) => v.replace(/[\s+()\-.]/g, ""))
    .pipe(z.string().regex(/^\d{8,20}$/, MSG.invalidNumber)),
  email: z.string().trim().max(254).optional(),
});
