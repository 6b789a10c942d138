import { z } from "zod";
import { idParam, idSchema, MSG, pageNumberSchema } from "./common.js";
import { contactLiteSchema } from "./contacts.js";
import { MESSAGE_MAX_LENGTH } from "./messages.js";

/** Issue 11 item 5: scheduled messages. */
export const SCHEDULE_STATUSES = ["scheduled", "sent", "failed", "cancelled"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];
export const SCHEDULE_PAGE_SIZE = 20;
/** `sendAt` may be this far in the past (the agent's clock, the time the form took) and still be accepted. */
export const SCHEDULE_PAST_SLACK_MS = 60 * 1000;
/** And at most this far ahead. */
export const SCHEDULE_MAX_AHEAD_MS = 366 * 24 * 60 * 60 * 1000;

const sendAtSchema = z.iso.datetime({ offset: true, error: "Invalid date" });
const bodySchema = z.string().max(MESSAGE_MAX_LENGTH, MSG.tooLong);

/**
 * `POST /api/schedules` (JSON, or multipart with the same fields and one `media` file): in a ticket
 * (`ticketId`) or to a contact (`contactId`, optional `whatsappId`). Body is required unless a file
 * is attached; that check and the time window (`sendAt` in the future, within a year) are the server's.
 */
export const scheduleCreateSchema = z
  .strictObject({
    ticketId: idSchema.optional(),
    contactId: idSchema.optional(),
    whatsappId: idSchema.nullish(),
    body: bodySchema.default(""),
    sendAt: sendAtSchema,
  })
  .refine((v) => v.ticketId !== undefined || v.contactId !== undefined, {
    path: ["ticketId"],
    message: MSG.required,
  });
export type ScheduleCreateInput = z.output<typeof scheduleCreateSchema>;

/** `PUT /api/schedules/:id` (JSON or multipart): only while `scheduled`; `removeMedia` drops the attachment. */
export const scheduleUpdateSchema = z.strictObject({
  body: bodySchema.optional(),
  sendAt: sendAtSchema.optional(),
  removeMedia: z.boolean().optional(),
});
export type ScheduleUpdateInput = z.output<typeof scheduleUpdateSchema>;

export const scheduleListQuerySchema = z.strictObject({
  pageNumber: pageNumberSchema,
  status: z.enum(SCHEDULE_STATUSES).optional(),
  userId: idParam.optional(),
  ticketId: idParam.optional(),
  contactId: idParam.optional(),
});
export type ScheduleListQuery = z.output<typeof scheduleListQuerySchema>;

export const scheduleSchema = z.object({
  id: z.number(),
  ticketId: z.number().nullable(),
  contactId: z.number(),
  whatsappId: z.number().nullable(),
  userId: z.number().nullable(),
  body: z.string(),
  mediaName: z.string().nullable(),
  mediaType: z.string().nullable(),
  sendAt: z.iso.datetime(),
  status: z.enum(SCHEDULE_STATUSES),
  /** The message it became (once sent). */
  messageId: z.number().nullable(),
  /** Why it failed (`status: "failed"`). */
  error: z.string().nullable(),
  sentAt: z.iso.datetime().nullable(),
  contact: contactLiteSchema,
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

export const scheduleListSchema = z.object({
  schedules: z.array(scheduleSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
