import { z } from "zod";
import { idParam, searchParamSchema } from "./common.js";

/** A colleague a note may mention: someone who may see the ticket (design §4 access rules). */
export const mentionableSchema = z.object({ id: z.number(), name: z.string() });
export type Mentionable = z.infer<typeof mentionableSchema>;

export const mentionableQuerySchema = z.strictObject({ searchParam: searchParamSchema });
export const mentionableListSchema = z.object({ users: z.array(mentionableSchema) });

/** A private note that mentions the signed-in user (the bell's "mentions" part). */
export const noteMentionSchema = z.object({
  id: z.number(),
  messageId: z.number(),
  ticketId: z.number(),
  /** The note's text, cut to 255 characters. */
  body: z.string(),
  author: z.object({ id: z.number(), name: z.string() }).nullable(),
  contact: z.object({ id: z.number(), name: z.string() }),
  read: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type NoteMention = z.infer<typeof noteMentionSchema>;

export const noteMentionListSchema = z.object({
  mentions: z.array(noteMentionSchema),
  /** How many unread mentions there are in all (the list holds the newest 50). */
  unreadCount: z.number(),
});

export const noteMentionParamsSchema = z.strictObject({ id: idParam });

/** POST /notes/mentions/read: every unread mention of the user, or only those on one ticket. */
export const noteMentionsReadSchema = z.strictObject({ ticketId: idParam.optional() });
