import type { MediaType } from "@zapdesk/core";
import type { MediaSource } from "../../media/storage.js";
import type { Ack, InboundMedia, InboundMessage, MessageUpdate } from "../channel.js";
import type { CloudCall } from "./cloud-calls.js";
import { addressChangeOf, authorOf, digits } from "./cloud-identity.js";

/**
 * Meta's `messages` webhook (entry[].changes[].value) as Zapdesk's channel events. Shapes from
 * Meta's "messages webhook reference" pages: every incoming message has from, id, timestamp, type
 * and an object named after its type; `contacts[]` carries the sender's wa_id and profile name;
 * `statuses[]` reports sent / delivered / read / failed (with `errors[]`) for what we sent.
 */

export interface CloudContact {
  /** `username` since 2026: the customer's WhatsApp username, when they chose one. */
  profile?: { name?: string; username?: string };
  /** The phone number; absent (since 2026-06) for a username customer whose number Meta withholds. */
  wa_id?: string;
  /** Business-scoped user id (BSUID, "BR.1502576394655843"), in every payload since 2026-04. */
  user_id?: string;
  /** The BSUID shared across a group of business portfolios, when Meta enabled it. */
  parent_user_id?: string;
}

/** Meta's `system` object: a customer changed number (`user_changed_number`) or BSUID (`user_changed_user_id`). */
export interface SystemObject {
  body?: string;
  type?: string;
  /** The new phone number (user_changed_number). */
  wa_id?: string;
  /** The new BSUID. */
  user_id?: string;
  parent_user_id?: string;
  /** The BSUID before the change (both types, since 2026-08-11). */
  previous_user_id?: string;
  previous_parent_user_id?: string;
}

interface MediaObject {
  id?: string;
  mime_type?: string;
  caption?: string;
  filename?: string;
  voice?: boolean;
}

export interface CloudMessage {
  id: string;
  /** The sender's phone number; absent when Meta withholds it (then `from_user_id` alone names them). */
  from?: string;
  from_user_id?: string;
  from_parent_user_id?: string;
  /** Groups API: the group the message was written in (`from` is then the participant). */
  group_id?: string;
  timestamp?: string;
  type?: string;
  context?: { from?: string; id?: string };
  text?: { body?: string };
  image?: MediaObject;
  video?: MediaObject;
  audio?: MediaObject;
  document?: MediaObject;
  sticker?: MediaObject;
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: VCardContact[];
  button?: { text?: string; payload?: string };
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
    /** A WhatsApp Flow's answer: the answered fields as a JSON string in `response_json`. */
    nfm_reply?: { name?: string; body?: string; response_json?: string };
  };
  reaction?: { message_id?: string; emoji?: string };
  system?: SystemObject;
}

interface VCardContact {
  name?: { formatted_name?: string; first_name?: string; last_name?: string };
  phones?: { phone?: string; wa_id?: string; type?: string }[];
  emails?: { email?: string }[];
  org?: { company?: string };
}

interface CloudError {
  code?: number;
  title?: string;
  message?: string;
  error_data?: { details?: string };
}

export interface CloudStatus {
  id: string;
  /** What the send carried as `biz_opaque_callback_data` (Zapdesk: the row's own id). */
  biz_opaque_callback_data?: string;
  status?: string;
  timestamp?: string;
  /** The phone number, or the group id for a group message; absent for a message sent to a BSUID. */
  recipient_id?: string;
  /** The recipient's BSUID (since 2026-04; omitted on a failed status of a send to a number). */
  recipient_user_id?: string;
  recipient_parent_user_id?: string;
  /** "group" for a message sent to a group; `recipient_participant_id` is then the member it concerns. */
  recipient_type?: string;
  recipient_participant_id?: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}

export interface CloudValue {
  messaging_product?: string;
  metadata?: { phone_number_id?: string; display_phone_number?: string };
  contacts?: CloudContact[];
  messages?: CloudMessage[];
  statuses?: CloudStatus[];
  /** Errors of the app or account, not of one message (e.g. throughput, a locked account). */
  errors?: CloudError[];
  calls?: CloudCall[];
}

export interface WebhookPayload {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: CloudValue }[] }[];
}

/** The webhook fields Zapdesk reads; the others (templates, account updates…) are acknowledged and ignored. */
const FIELDS = ["messages", "calls"] as const;
export type CloudField = (typeof FIELDS)[number];

/** The `messages` and `calls` changes of a payload, each with the business phone number it is for. */
export function changesOf(payload: WebhookPayload): { phoneNumberId: string; field: CloudField; value: CloudValue }[] {
  const out: { phoneNumberId: string; field: CloudField; value: CloudValue }[] = [];
  for (const entry of Array.isArray(payload?.entry) ? payload.entry : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const phoneNumberId = change?.value?.metadata?.phone_number_id;
      const field = FIELDS.find((f) => f === change?.field);
      if (field && change.value && typeof phoneNumberId === "string") out.push({ phoneNumberId, field, value: change.value });
    }
  }
  return out;
}

const errorText = (error: CloudError | undefined) => {
  const title = error?.title ?? error?.message ?? "Failed";
  const details = error?.error_data?.details;
  return details && details !== title ? `${title}: ${details}` : title;
};

/** The account-level errors of a change, as the line an admin reads ("Meta 131031: Business account locked: …"). */
export function accountErrorsOf(value: CloudValue): string[] {
  const errors = Array.isArray(value?.errors) ? value.errors : [];
  return errors.map((error) => `Meta ${error?.code ?? "error"}: ${errorText(error)}`);
}

/**
 * A Flow's answer as text the agent reads: each answered field on its own line ("name: value"),
 * the flow_token (the business's own tag for the flow) left out. An answer that is not JSON is
 * shown as it came.
 */
export function flowAnswerText(reply: NonNullable<NonNullable<CloudMessage["interactive"]>["nfm_reply"]>): string {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(reply.response_json ?? "{}");
  } catch {
    return [reply.body, reply.response_json].filter(Boolean).join("\n");
  }
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) return reply.response_json ?? reply.body ?? "";
  const show = (value: unknown): string => {
    if (Array.isArray(value)) return value.map(show).join(", ");
    if (value && typeof value === "object") return JSON.stringify(value);
    return String(value);
  };
  const lines = Object.entries(fields)
    .filter(([key]) => key !== "flow_token")
    .map(([key, value]) => `${key}: ${show(value)}`);
  return lines.length ? lines.join("\n") : (reply.body ?? "");
}

const STATUS_ACK: Record<string, Ack> = { sent: 1, delivered: 2, read: 3, played: 4 };
const MEDIA_KINDS = ["image", "video", "audio", "document", "sticker"] as const;

const toDate = (timestamp: string | undefined) => {
  const seconds = Number(timestamp);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
};

/** The media id a stored message's raw data points at (the retry of a failed download). */
export function mediaIdOf(raw: unknown): string | undefined {
  const message = raw as CloudMessage | undefined;
  const kind = message?.type as (typeof MEDIA_KINDS)[number] | undefined;
  if (!kind || !MEDIA_KINDS.includes(kind)) return undefined;
  return message?.[kind]?.id;
}

function vcardOf(contacts: VCardContact[]): string {
  return contacts
    .map((c) => {
      const name = c.name ?? {};
      const lines = ["BEGIN:VCARD", "VERSION:3.0", `N:${name.last_name ?? ""};${name.first_name ?? ""};;;`];
      lines.push(`FN:${name.formatted_name ?? [name.first_name, name.last_name].filter(Boolean).join(" ")}`);
      if (c.org?.company) lines.push(`ORG:${c.org.company}`);
      for (const phone of c.phones ?? []) {
        lines.push(`TEL;type=${phone.type ?? "CELL"}${phone.wa_id ? `;waid=${phone.wa_id}` : ""}:${phone.phone ?? ""}`);
      }
      for (const email of c.emails ?? []) if (email.email) lines.push(`EMAIL:${email.email}`);
      lines.push("END:VCARD");
      return lines.join("\n");
    })
    .join("\n");
}

/** What one message becomes: a stored message, or (a reaction) an update of its target. */
export type Translated = { message: InboundMessage } | { update: MessageUpdate } | { skipped: string };

export function translateMessage(
  message: CloudMessage,
  contacts: CloudContact[],
  downloader: (mediaId: string) => Promise<MediaSource>,
): Translated {
  if (typeof message?.id !== "string") return { skipped: "no message id" };
  const changed = addressChangeOf(message);
  // A number or BSUID change is stored where the customer now is (the contact has moved there).
  const author = authorOf(message, contacts) ?? (changed && { address: changed.to, name: undefined, username: undefined });
  if (!author) return { skipped: "sender without a phone number or a BSUID" };
  const { address: from, name, username } = author;
  // A Groups API message belongs to its group: replies go there, never privately to the member.
  const group = typeof message.group_id === "string" && message.group_id ? message.group_id : undefined;
  const chat = group ?? changed?.to ?? from;
  const type = message.type ?? "unsupported";

  if (type === "reaction") {
    if (!message.reaction?.message_id) return { skipped: "reaction without target" };
    return {
      update: {
        wid: message.reaction.message_id,
        chat,
        reaction: { by: from, name, emoji: message.reaction.emoji ?? "", fromMe: false },
      },
    };
  }

  const result: InboundMessage = {
    wid: message.id,
    chat,
    isGroup: group !== undefined,
    sender: { number: changed?.to ?? from, name, ...(username ? { username } : {}) },
    fromMe: false,
    timestamp: toDate(message.timestamp),
    type: "chat",
    body: "",
    quotedWid: message.context?.id,
    raw: message,
  };
  const kind = type as (typeof MEDIA_KINDS)[number];
  if (MEDIA_KINDS.includes(kind)) {
    const object = message[kind] ?? {};
    const mediaId = object.id;
    result.type = kind as MediaType;
    result.body = object.caption ?? "";
    if (mediaId) {
      const media: InboundMedia = {
        mimetype: object.mime_type ?? "application/octet-stream",
        download: () => downloader(mediaId),
      };
      if (object.filename) media.filename = object.filename;
      result.media = media;
    }
    return { message: result };
  }
  switch (type) {
    case "text":
      result.body = message.text?.body ?? "";
      break;
    case "location": {
      const l = message.location ?? {};
      result.type = "location";
      result.location = {
        latitude: Number(l.latitude ?? 0),
        longitude: Number(l.longitude ?? 0),
        description: [l.name, l.address].filter(Boolean).join("\n") || undefined,
      };
      break;
    }
    case "contacts":
      result.type = "vcard";
      result.vcard = vcardOf(message.contacts ?? []);
      break;
    case "button":
      result.body = message.button?.text ?? message.button?.payload ?? "";
      break;
    case "interactive": {
      if (message.interactive?.type === "nfm_reply" && message.interactive.nfm_reply) {
        result.body = flowAnswerText(message.interactive.nfm_reply);
        break;
      }
      const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
      if (!reply) {
        result.type = "unsupported";
        result.body = `interactive:${message.interactive?.type ?? "unknown"}`;
        break;
      }
      const description = message.interactive?.list_reply?.description;
      result.body = [reply.title ?? reply.id ?? "", description].filter(Boolean).join("\n");
      break;
    }
    default:
      // `unsupported` and every type Zapdesk does not show (order, system, request_welcome…):
      // stored so that the agent knows the customer wrote, with its type as the body.
      result.type = "unsupported";
      result.body = type === "system" && message.system?.body ? message.system.body : type;
  }
  return { message: result };
}

/** A status of a message we sent: the ack it moves to, and Meta's code and title when it failed. */
export function translateStatus(status: CloudStatus): MessageUpdate | undefined {
  if (typeof status?.id !== "string") return undefined;
  // A group message's status names the group (and the member it reached); a send to a BSUID has no recipient_id.
  const chat =
    status.recipient_type === "group"
      ? (status.recipient_id ?? "")
      : digits(status.recipient_id) || (status.recipient_user_id ?? "");
  if (status.status === "failed") {
    const error = status.errors?.[0];
    const details = error?.error_data?.details;
    const title = error?.title ?? error?.message ?? "Failed";
    return {
      wid: status.id,
      chat,
      fromMe: true,
      ack: -1,
      error: {
        code: String(error?.code ?? "unknown"),
        title: details && details !== title ? `${title}: ${details}` : title,
      },
    };
  }
  const ack = STATUS_ACK[status.status ?? ""];
  return ack === undefined ? undefined : { wid: status.id, chat, fromMe: true, ack };
}

/**
 * The id Zapdesk chose for the message, as the send carried it in `biz_opaque_callback_data` and
 * Meta echoes it in every status: it names the row when the send's answer (the wamid) was lost.
 */
export function withChosenWid(update: MessageUpdate, status: CloudStatus): MessageUpdate {
  const opaque = status.biz_opaque_callback_data;
  return typeof opaque === "string" && opaque ? { ...update, chosenWid: opaque } : update;
}
