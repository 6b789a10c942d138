import { z } from "zod";
import { MSG, pageNumberSchema } from "./common.js";

/** What an outbound webhook may subscribe to (issue 11 item 6). */
export const WEBHOOK_EVENTS = [
  "message.created",
  "ticket.created",
  "ticket.updated",
  "ticket.closed",
  "contact.created",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/**
 * Issue 23 §1–§2: a delivery an action asked for (a macro's or a rule's "call a webhook"), not an
 * event a webhook subscribes to: it shows in the webhook's deliveries beside the subscribed ones.
 */
export const WEBHOOK_CALL_EVENT = "ticket.action";

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "success", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** Deliveries per page of `GET /api/webhooks/:id/deliveries`. */
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;

/** http:// or https://, a host (no user:password@), then an optional path, query or fragment. */
const isHttpUrl = (value: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i.test(value) && !/[\u0000-\u001f\u007f]/.test(value);

/** http(s) only, no credentials in the address; whether the host is allowed is the server's call (DNS). */
export const webhookUrlSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(2000, MSG.tooLong)
  .refine(isHttpUrl, MSG.invalidUrl);

export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, MSG.required)
  .max(WEBHOOK_EVENTS.length * 2)
  .transform((events) => WEBHOOK_EVENTS.filter((e) => events.includes(e)));

export const webhookInputSchema = z.strictObject({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  enabled: z.boolean().default(true),
});
export type WebhookInput = z.input<typeof webhookInputSchema>;

export const webhookUpdateSchema = z.strictObject({
  url: webhookUrlSchema.optional(),
  events: webhookEventsSchema.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookUpdate = z.input<typeof webhookUpdateSchema>;

export const webhookSchema = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  /** The secret's last characters, to tell secrets apart; the secret itself is shown once. */
  secretHint: z.string(),
  lastDelivery: z
    .object({ status: z.enum(WEBHOOK_DELIVERY_STATUSES), responseStatus: z.number().nullable(), at: z.iso.datetime() })
    .nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer to a creation: the webhook and, this once, its signing secret. */
export const webhookCreatedSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

/** The answer to a secret rotation: the new secret, shown this once. */
export const webhookSecretSchema = z.object({ id: z.number(), secret: z.string(), secretHint: z.string() });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });

export const webhookDeliverySchema = z.object({
  id: z.number(),
  webhookId: z.number(),
  event: z.enum([...WEBHOOK_EVENTS, WEBHOOK_CALL_EVENT]),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  /** Attempts made so far (the last one's outcome is below). */
  attempt: z.number(),
  responseStatus: z.number().nullable(),
  latencyMs: z.number().nullable(),
  /** The first kilobyte of the receiver's answer. */
  responseSnippet: z.string().nullable(),
  error: z.string().nullable(),
  lastAttemptAt: z.iso.datetime().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListQuerySchema = z.strictObject({
  pageNumber: pageNumberSchema,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});

export const webhookDeliveryListSchema = z.object({
  deliveries: z.array(webhookDeliverySchema),
  count: z.number(),
  hasMore: z.boolean(),
});
