import { createHash, randomBytes } from "node:crypto";

/**
 * Webhook payloads as Meta sends them for the `messages` field (shapes from Meta's "messages
 * webhook reference" pages, cited in graph-fake.test.ts). Only the builders: the driver signs and
 * posts them.
 *
 * 2026 shapes (Meta's "Business-scoped user IDs" page, updated 2026-11-05): every incoming message
 * carries `messages[].from_user_id` and `contacts[].user_id` (the BSUID), `profile.username` when
 * the customer chose one; a username customer whose number Meta withholds arrives with neither
 * `from` nor `wa_id`. System messages (number or BSUID changes) carry no `contacts[]`.
 */

const COUNTRY: [prefix: string, code: string][] = [
  ["55", "BR"],
  ["52", "MX"],
  ["54", "AR"],
  ["44", "GB"],
  ["1", "US"],
];

/**
 * The BSUID Meta gives a phone number's account in this fake's one business portfolio: the
 * account's ISO country code, a period, then digits ("BR.1502576394655843"). Stable, so the
 * webhooks and the Graph API's answers agree on it, as Meta's do.
 */
export function bsuidOf(phone: string): string {
  const code = COUNTRY.find(([prefix]) => phone.startsWith(prefix))?.[1] ?? "US";
  const hash = createHash("sha256").update(`bsuid:${phone}`).digest("hex");
  return `${code}.${BigInt(`0x${hash.slice(0, 15)}`).toString()}`;
}

export interface Business {
  phoneNumberId: string;
  businessAccountId: string;
  displayPhoneNumber: string;
}

export type WebhookMessage = Record<string, unknown> & { id: string; from?: string; type: string; timestamp: string };

export const newWamid = () => `wamid.${randomBytes(24).toString("base64")}`;
const unix = (at: Date = new Date()) => String(Math.floor(at.getTime() / 1000));

/** `{ object, entry: [{ id: WABA, changes: [{ value: { messaging_product, metadata, ... }, field: "messages" }] }] }` */
export function envelope(business: Business, value: Record<string, unknown>, field: "messages" | "calls" = "messages") {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: business.businessAccountId,
        changes: [
          {
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: business.displayPhoneNumber, phone_number_id: business.phoneNumberId },
              ...value,
            },
            field,
          },
        ],
      },
    ],
  };
}

/**
 * An incoming message with the sender's `contacts[]` entry: profile name (and `username`), `wa_id`
 * unless the number is withheld, and the `user_id` (BSUID).
 */
export function inbound(business: Business, message: WebhookMessage, profileName = "Customer", username?: string) {
  return envelope(business, {
    contacts: [
      {
        profile: { name: profileName, ...(username ? { username } : {}) },
        ...(message.from ? { wa_id: message.from } : {}),
        user_id: message.from_user_id,
      },
    ],
    messages: [message],
  });
}

interface Common {
  /** The sender's phone number (WhatsApp's id for it). */
  from: string;
  id?: string;
  at?: Date;
  /** The message this one replies to: `context: { from, id }`. */
  replyTo?: { from: string; id: string };
  /** A username customer whose number Meta withholds: no `from` (nor `wa_id`), the BSUID alone. */
  hidePhone?: boolean;
  /** Groups API: the group the message was written in. */
  groupId?: string;
}

function base(type: string, c: Common): WebhookMessage {
  return {
    ...(c.replyTo ? { context: { from: c.replyTo.from, id: c.replyTo.id } } : {}),
    ...(c.hidePhone ? {} : { from: c.from }),
    from_user_id: bsuidOf(c.from),
    ...(c.groupId ? { group_id: c.groupId } : {}),
    id: c.id ?? newWamid(),
    timestamp: unix(c.at),
    type,
  };
}

/**
 * `user_changed_number`: the customer moved to `to`. `from` is the old number, `system.wa_id` the
 * new one; a new number comes with a new BSUID (`user_id`, and `previous_user_id` since 2026-08-11).
 */
export const userChangedNumber = (c: { from: string; to: string; name?: string; id?: string; at?: Date }): WebhookMessage => ({
  from: c.from,
  id: c.id ?? newWamid(),
  timestamp: unix(c.at),
  type: "system",
  system: {
    body: `User ${c.name ?? "Customer"} changed from ${c.from} to ${c.to}`,
    wa_id: c.to,
    type: "user_changed_number",
    user_id: bsuidOf(c.to),
    previous_user_id: bsuidOf(c.from),
  },
});

/** `user_changed_user_id` (since 2026-08-11): only the BSUID changed, no phone number is included. */
export const userChangedUserId = (c: { previousUserId: string; userId: string; id?: string; at?: Date }): WebhookMessage => ({
  from_user_id: c.previousUserId,
  id: c.id ?? newWamid(),
  timestamp: unix(c.at),
  type: "system",
  system: {
    body: "User changed their business-scoped user ID",
    type: "user_changed_user_id",
    user_id: c.userId,
    previous_user_id: c.previousUserId,
  },
});

export const text = (c: Common & { body: string }): WebhookMessage => ({ ...base("text", c), text: { body: c.body } });

/** image, video, document (caption, filename), audio (voice), sticker (animated): the media is fetched by id. */
export function media(
  type: "image" | "video" | "audio" | "document" | "sticker",
  c: Common & { mediaId: string; mimeType: string; sha256?: string; caption?: string; filename?: string; voice?: boolean },
): WebhookMessage {
  const object: Record<string, unknown> = { mime_type: c.mimeType, sha256: c.sha256 ?? "", id: c.mediaId };
  if (c.caption !== undefined) object.caption = c.caption;
  if (c.filename !== undefined) object.filename = c.filename;
  if (type === "audio") object.voice = c.voice ?? false;
  if (type === "sticker") object.animated = false;
  return { ...base(type, c), [type]: object };
}

export const location = (
  c: Common & { latitude: number; longitude: number; name?: string; address?: string },
): WebhookMessage => ({
  ...base("location", c),
  location: { latitude: c.latitude, longitude: c.longitude, name: c.name, address: c.address },
});

export const contacts = (c: Common & { name: string; phone: string; waId?: string }): WebhookMessage => ({
  ...base("contacts", c),
  contacts: [
    {
      name: { formatted_name: c.name, first_name: c.name.split(" ")[0] },
      phones: [{ phone: c.phone, wa_id: c.waId, type: "CELL" }],
    },
  ],
});

/** A quick-reply button tapped in a template. */
export const button = (c: Common & { text: string; payload: string }): WebhookMessage => ({
  ...base("button", c),
  button: { payload: c.payload, text: c.text },
});

export const buttonReply = (c: Common & { replyId: string; title: string }): WebhookMessage => ({
  ...base("interactive", c),
  interactive: { type: "button_reply", button_reply: { id: c.replyId, title: c.title } },
});

export const listReply = (c: Common & { replyId: string; title: string; description?: string }): WebhookMessage => ({
  ...base("interactive", c),
  interactive: { type: "list_reply", list_reply: { id: c.replyId, title: c.title, description: c.description ?? "" } },
});

/**
 * A WhatsApp Flow's answer: `interactive.nfm_reply` with `name: "flow"`, `body: "Sent"` and the
 * answered fields as a JSON string (with the flow_token the business gave the flow), replying to
 * the flow message (Meta's "Response Message Webhook" reference).
 */
export const flowReply = (c: Common & { response: Record<string, unknown>; flowToken?: string }): WebhookMessage => ({
  ...base("interactive", c),
  interactive: {
    type: "nfm_reply",
    nfm_reply: {
      name: "flow",
      body: "Sent",
      response_json: JSON.stringify({ flow_token: c.flowToken ?? "unused", ...c.response }),
    },
  },
});

/** A reaction to a message the business sent; withdrawing it sends no `emoji`. */
export const reaction = (c: Common & { messageId: string; emoji?: string }): WebhookMessage => ({
  ...base("reaction", c),
  reaction: { message_id: c.messageId, ...(c.emoji ? { emoji: c.emoji } : {}) },
});

export const unsupported = (c: Common): WebhookMessage => ({
  ...base("unsupported", c),
  errors: [
    {
      code: 131051,
      title: "Message type unknown",
      message: "Message type unknown",
      error_data: { details: "Message type is currently not supported." },
    },
  ],
});

export interface StatusInput {
  id: string;
  status: "sent" | "delivered" | "read" | "played" | "failed";
  /** The phone number, or the group id; omitted for a message sent to a BSUID (`recipient`). */
  recipientId?: string;
  /** The recipient's BSUID (2026): on every status but a failed one of a send to a number. */
  recipientUserId?: string;
  /** A group message's status: the member it concerns. */
  group?: { participant: string };
  at?: Date;
  /** What the send carried as `biz_opaque_callback_data`: Meta echoes it in every status. */
  bizOpaqueCallbackData?: string;
  errors?: { code: number; title: string; message?: string; details?: string }[];
}

/**
 * `statuses[]` of messages the business sent; a failed one carries `errors[]` instead of pricing.
 * Since 2026 sent/delivered/read statuses come with a `contacts[]` entry (wa_id when the number
 * may be shared, user_id); failed ones come without it.
 */
export function statuses(business: Business, list: StatusInput[]) {
  const contacts = list
    .filter((s) => s.status !== "failed" && !s.group && (s.recipientId || s.recipientUserId))
    .map((s) => ({
      ...(s.recipientId ? { wa_id: s.recipientId } : {}),
      user_id: s.recipientUserId ?? bsuidOf(s.recipientId as string),
    }));
  return envelope(business, {
    ...(contacts.length > 0 ? { contacts } : {}),
    statuses: list.map((s) => ({
      id: s.id,
      status: s.status,
      timestamp: unix(s.at),
      ...(s.recipientId !== undefined ? { recipient_id: s.recipientId } : {}),
      // Sent to a number, the BSUID comes along, except on a failed status.
      ...(s.recipientUserId !== undefined
        ? { recipient_user_id: s.recipientUserId }
        : s.recipientId && !s.group && s.status !== "failed"
          ? { recipient_user_id: bsuidOf(s.recipientId) }
          : {}),
      ...(s.bizOpaqueCallbackData !== undefined ? { biz_opaque_callback_data: s.bizOpaqueCallbackData } : {}),
      ...(s.group ? { recipient_type: "group", recipient_participant_id: s.group.participant } : {}),
      ...(s.errors
        ? {
            errors: s.errors.map((e) => ({
              code: e.code,
              title: e.title,
              message: e.message ?? e.title,
              error_data: { details: e.details ?? e.title },
              href: "https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/",
            })),
          }
        : {
            conversation: { id: randomBytes(16).toString("hex"), origin: { type: "service" } },
            pricing: { billable: true, pricing_model: "PMP", category: "service" },
          }),
    })),
  });
}

/**
 * Errors of the app or account rather than of a message (`value.errors`, Meta's "errors messages
 * webhook reference"): e.g. 130429 when the number's throughput is exceeded, 131031 when the
 * account is locked. Title and message are the same text.
 */
export function accountErrors(business: Business, list: { code: number; title: string; details?: string }[]) {
  return envelope(business, {
    errors: list.map((e) => ({
      code: e.code,
      title: e.title,
      message: e.title,
      error_data: { details: e.details ?? e.title },
      href: "/docs/whatsapp/cloud-api/support/error-codes/",
    })),
  });
}

export interface CallInput {
  /** The caller: the customer's number. */
  from: string;
  /** The business number called. */
  to: string;
  id?: string;
  event: "connect" | "terminate";
  at?: Date;
  /** terminate: COMPLETED (answered) or FAILED (not answered); duration in seconds when answered. */
  status?: "COMPLETED" | "FAILED";
  durationSeconds?: number;
}

export const newCallId = () => `wacid.${randomBytes(18).toString("base64url")}`;

/**
 * The `calls` field (Meta's Calling API "user-initiated calls" webhooks): `connect` when a customer
 * calls (with the SDP offer), `terminate` when the call ends, with its status and, for an
 * answered call, start, end and duration.
 */
export function calls(business: Business, list: CallInput[]) {
  return envelope(
    business,
    {
      calls: list.map((c) => {
        const common = {
          id: c.id ?? newCallId(),
          from: c.from,
          to: c.to,
          event: c.event,
          timestamp: unix(c.at),
          direction: "USER_INITIATED",
        };
        if (c.event === "connect")
          return { ...common, session: { sdp_type: "offer", sdp: "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\n" } };
        const end = c.at ?? new Date();
        const answered = c.status === "COMPLETED" && c.durationSeconds !== undefined;
        return {
          ...common,
          status: c.status ?? "FAILED",
          ...(answered
            ? {
                start_time: unix(new Date(end.getTime() - (c.durationSeconds as number) * 1000)),
                end_time: unix(end),
                duration: c.durationSeconds,
              }
            : {}),
        };
      }),
    },
    "calls",
  );
}
