import { z } from "zod";
import { CONNECTION_PROVIDERS, TICKET_STATUSES } from "../constants.js";
import { closingValueSchema, ticketClosingSchema } from "./closing-reasons.js";
import { idParam, idSchema, pageNumberSchema, searchParamSchema } from "./common.js";
import { contactLiteSchema, extraInfoSchema } from "./contacts.js";
import { queueLiteSchema } from "./queues.js";
import { tagIdsSchema, tagSchema } from "./tags.js";

/** Issue 13: the ticket list's orders (by `updatedAt`, then id). */
export const TICKET_SORTS = ["newest", "oldest"] as const;
export type TicketSort = (typeof TICKET_SORTS)[number];

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
  /** Issue 11: tickets with any of these tags, encoded like `queueIds` ("[1,2]"). */
  tagIds: queueIdsQuery,
  withUnreadMessages: z.stringbool().optional(),
  /** Issue 23 §5: only the tickets of the user's own customers (contacts they own). */
  myCustomers: z.stringbool().optional(),
  /** Issue 13: "oldest" lists the least recently moved first (the Waiting list's longest wait); default newest. */
  sort: z.enum(TICKET_SORTS).optional(),
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
  /** Issue 11: the ticket's tags, the whole set (alone or with the fields above). */
  tagIds: tagIdsSchema.optional(),
  /** Issue 23 §6: the closing reason, with a resolve (status "closed"), or alone to correct a closed ticket's. */
  closingReasonId: idSchema.nullable().optional(),
  /** The reason's value (e.g. a sale amount) when it asks for one. */
  closingValue: closingValueSchema.nullable().optional(),
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
  /** Issue 13: when a waiting (pending) ticket's wait began; null for open and closed tickets. */
  waitingSince: z.iso.datetime().nullable().optional(),
  /** Issue 11 CSAT: the customer's satisfaction answer (1–5), null while unrated. */
  rating: z.number().int().min(1).max(5).nullable(),
  /** Issue 11: the ticket's tags, by name. */
  tags: z.array(tagSchema),
  /** Issue 13: still at the greeting menu (no queue, no agent, the menu was sent): listed apart. */
  choosingQueue: z.boolean().optional(),
  /**
   * Issue 23 §4: a queue's bot holds the ticket (it talks with the customer before any agent). Agents'
   * waiting lists leave it out (`hiddenWhileBotHolds`); admins see it, searches find it.
   */
  botHeld: z
    .boolean()
    .optional()
    .describe("A queue's bot holds the ticket: agents' waiting lists leave it out until the bot hands over."),
  /** Issue 23 §6: the reason of the ticket's last close (kept when reopened, replaced at the next close). */
  closingReason: ticketClosingSchema.nullable().optional(),
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
  /** Issue 24: a search counts up to a cap; true: there are more than `count` (shown "1,000+"). */
  countCapped: z
    .boolean()
    .optional()
    .describe(
      "Searches only: the count stopped at its cap, so there are more than `count` matches (hasMore still pages to the end).",
    ),
});

/** Issue 13: `GET /tickets/next`, the ticket to handle after `after` (the one just left). */
export const ticketNextQuerySchema = z.strictObject({
  after: idParam.optional().describe("The ticket just handled: never the answer."),
});
export const ticketNextSchema = z.object({ ticket: ticketSchema.nullable() });

export const protocolResultSchema = z.object({ protocol: z.string(), ticket: ticketSchema });
