import { z } from "zod";
import { CONNECTION_PROVIDERS, TICKET_STATUSES } from "../constants.js";
import { idParam, idSchema, pageNumberSchema, searchParamSchema } from "./common.js";
import { contactLiteSchema, extraInfoSchema } from "./contacts.js";
import { queueLiteSchema } from "./queues.js";

const idArray = z.array(idParam).max(500);

/** `queueIds` arrives as a JSON array in the query string (spec §7): "[1,2]". */
const queueIdsQuery = z
  .union([z.string().max(4000), idArray])
  .transform((value, ctx) => {
    if (Array.isArray(value)) return value;
    if (value === "") return [];
    try {
      const parsed = idArray.safeParse(JSON.parse(value));
      if (parsed.success) return parsed.data;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: "Expected a JSON array of ids" });
    return z.NEVER;
  })
  .optional();

export const ticketListQuerySchema = z.strictObject({
  searchParam: searchParamSchema,
  pageNumber: pageNumberSchema,
  status: z.enum(TICKET_STATUSES).optional(),
  /** A day, "yyyy-MM-dd": tickets created that day. */
  date: z.iso.date().optional(),
  showAll: z.stringbool().optional(),
  queueIds: queueIdsQuery,
  withUnreadMessages: z.stringbool().optional(),
});
export type TicketListQuery = z.output<typeof ticketListQuerySchema>;

export const ticketCreateSchema = z.strictObject({
  contactId: idSchema,
  userId: idSchema.nullish(),
  /** A new ticket starts open (spec §4) or waiting in the queue; never closed. */
  status: z.enum(["open", "pending"]).default("open"),
  whatsappId: idSchema.optional(),
});

/** Any subset of status, userId and queueId (spec §7); the server checks the transition. */
export const ticketUpdateSchema = z.strictObject({
  status: z.enum(TICKET_STATUSES).optional(),
  userId: idSchema.nullable().optional(),
  queueId: idSchema.nullable().optional(),
});
export type TicketUpdateInput = z.output<typeof ticketUpdateSchema>;

export const ticketSchema = z.object({
  id: z.number(),
  status: z.enum(TICKET_STATUSES),
  unreadMessages: z.number(),
  lastMessage: z.string(),
  isGroup: z.boolean(),
  userId: z.number().nullable(),
  queueId: z.number().nullable(),
  contactId: z.number(),
  whatsappId: z.number().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  contact: contactLiteSchema.extend({ extraInfo: z.array(extraInfoSchema).optional() }),
  queue: queueLiteSchema.nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string(), provider: z.enum(CONNECTION_PROVIDERS) }).nullable(),
  /** When the customer last wrote on this connection: a Cloud API connection's 24-hour window runs from it. */
  lastInboundAt: z.iso.datetime().nullable(),
  matchedMessageId: z
    .number()
    .nullable()
    .optional()
    .describe("Search results only: the newest matching message (open the chat around it); null when the contact matched."),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketListSchema = z.object({
  tickets: z.array(ticketSchema),
  count: z.number(),
  hasMore: z.boolean(),
});

export const protocolResultSchema = z.object({ protocol: z.string(), ticket: ticketSchema });
