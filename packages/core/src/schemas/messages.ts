import { z } from "zod";
import { AUTOMATIONS, MEDIA_TYPES } from "../constants.js";
import { idParam, idSchema, MSG, pageNumberSchema } from "./common.js";
import { contactLiteSchema } from "./contacts.js";
import { ticketSchema } from "./tickets.js";

export const MESSAGE_MAX_LENGTH = 30000;
/** How many colleagues one private note may mention. */
export const NOTE_MENTIONS_MAX = 20;

export const messageListQuerySchema = z.strictObject({
  pageNumber: pageNumberSchema,
  around: idParam.optional().describe("A message of the ticket: answer the page holding it (instead of pageNumber)."),
});

export const ticketIdParamsSchema = z.strictObject({ ticketId: idParam });

/** JSON send (spec §7): body and an optional quoted message; read/fromMe/mediaUrl are accepted and ignored. */
export const messageSendSchema = z
  .strictObject({
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
    /** A private note (issue 11): stored for colleagues, never sent to the customer. */
    isNote: z.boolean().optional(),
    /** Colleagues a note mentions (user ids); only with `isNote: true`. */
    mentions: z.array(idSchema).max(NOTE_MENTIONS_MAX).optional(),
  })
  .refine((v) => v.isNote === true || !v.mentions?.length, { path: ["mentions"], message: "Only a note mentions colleagues" });
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

/** A reaction a participant put on a message (the newest per participant; removed when withdrawn). */
export const reactionSchema = z.object({ emoji: z.string(), fromMe: z.boolean(), name: z.string() });
export type Reaction = z.infer<typeof reactionSchema>;

/** Why WhatsApp refused a message (ack -1): the provider's code and a readable reason. */
export const messageErrorSchema = z.object({ code: z.string(), title: z.string() });

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
  automation: z
    .enum(AUTOMATIONS)
    .nullable()
    .describe("What sent an automatic message (fromBot): bot, menu, rule or system; null for everything else."),
  /** A private note (issue 11): only colleagues who may see the ticket see it; never sent to the channel. */
  isNote: z.boolean(),
  /** The colleagues a private note mentions (empty for every other message). */
  mentions: z.array(z.object({ id: z.number(), name: z.string() })),
  /** Set when WhatsApp refused the message (ack -1); the agent may send it again. */
  error: messageErrorSchema.nullable(),
  reactions: z.array(reactionSchema),
  createdAt: z.iso.datetime(),
  /** When the message last changed (ack, edit, media, refusal): a client keeps the newest copy it saw. */
  updatedAt: z.iso.datetime(),
  contact: contactLiteSchema.nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  quotedMsg: quotedMessageSchema.nullable(),
});
export type Message = z.infer<typeof messageSchema>;

export const messageListSchema = z.object({
  messages: z.array(messageSchema),
  ticket: ticketSchema,
  count: z.number(),
  hasMore: z.boolean().describe("Older messages exist: ask pageNumber + 1."),
  hasNewer: z.boolean().optional().describe("Newer messages exist: ask pageNumber - 1."),
  pageNumber: z.number().optional().describe("The page answered: the one asked for, or the one holding `around`."),
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

/** POST /messages/:ticketId/template: an approved template, its variables filled in (Cloud API). */
export const templateSendSchema = z.strictObject({
  name: z.string().trim().min(1, MSG.required).max(512),
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, "A language code such as pt_BR"),
  bodyParams: z.array(z.string().trim().min(1, MSG.required).max(1024, MSG.tooLong)).max(20).default([]),
  headerParams: z.array(z.string().trim().min(1, MSG.required).max(60, MSG.tooLong)).max(1).default([]),
});
export type TemplateSendInput = z.input<typeof templateSendSchema>;

/**
 * GET /public/media/:token: a signed, expiring link to one message's media (given to a queue's bot).
 * Any text up to the path limit is taken, so that every token that is not a genuine link gets the
 * same answer (403 ERR_MEDIA_LINK_INVALID), whatever its shape.
 */
export const publicMediaParamsSchema = z.strictObject({
  token: z.string().min(1).max(100).describe("`<messageId>.<expiry, unix seconds>.<signature>`, as the link gave it."),
});
