import { z } from "zod";

/**
 * Issue 13 item 7: web push. The browser's `PushSubscription.toJSON()` as it arrives: an https
 * endpoint of the push service and the two keys the payload is encrypted with (base64url).
 */
const base64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "base64url");

export const pushSubscriptionInputSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  expirationTime: z.number().nullish(),
  keys: z.strictObject({
    p256dh: base64url(80, 100),
    auth: base64url(16, 32),
  }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInputSchema>;

export const pushEndpointSchema = z.strictObject({ endpoint: z.url().max(2048) });

export const pushKeySchema = z.object({
  /** The VAPID public key (base64url), the browser's `applicationServerKey`. */
  publicKey: z.string().nullable(),
});

export const pushSubscriptionSchema = z.object({ id: z.number(), endpoint: z.string() });

/** What reaches the service worker in a push message. */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
  /** The ticket it is about; null for one about a connection. */
  ticketId: z.number().nullable(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** Per user: the chime, the browser notification while the app is open, and push with it closed. */
export const notificationPreferencesSchema = z.object({
  sound: z.boolean(),
  desktop: z.boolean(),
  push: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const notificationPreferencesInputSchema = notificationPreferencesSchema.partial().strict();
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesInputSchema>;
