import type { ConnectionProvider, ConnectionStatus, ConnectionStatusReason, MediaType } from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import type { MediaSource } from "../media/storage.js";
import type { ChannelStore } from "./channel-store.js";
import type { InboundLog } from "./inbound-log.js";
import type { InboundSpool } from "./inbound-spool.js";

/**
 * The one interface every WhatsApp transport implements (design §5). A channel
 * only translates between its library and these shapes: it never touches tickets,
 * contacts or sockets. The session manager owns live sessions; the inbound
 * pipeline consumes the events.
 */

/**
 * A WhatsApp chat address: a phone number as digits, a group id (e.g. "120363041234567890"), or,
 * for a customer WhatsApp shows only by LID (an opaque id, no phone number), "<lid>@lid". A LID
 * address is a real address: replies go to it (never to the LID digits as if they were a number).
 */
export type ChatNumber = string;

export interface InboundMedia {
  mimetype: string;
  filename?: string;
  /** The size the sender declared (WhatsApp's fileLength), checked against the cap before downloading. */
  size?: number;
  /**
   * Start fetching the bytes, as a stream (the pipeline streams it to storage under the size cap);
   * may fail (expired media), the pipeline then stores the message with a media error.
   */
  download(): Promise<MediaSource>;
}

export interface InboundLocation {
  latitude: number;
  longitude: number;
  description?: string;
  /** JPEG thumbnail as base64, when WhatsApp sends one. */
  thumbnailBase64?: string;
}

export interface InboundMessage {
  /** WhatsApp's message id; (connection, wid) is unique, so redeliveries are no-ops. */
  wid: string;
  /** The chat: the customer's number, or the group id for group messages. */
  chat: ChatNumber;
  isGroup: boolean;
  /** The group subject, when known. */
  groupName?: string;
  /**
   * Who wrote it: the customer (or the group participant). Absent for fromMe. `username`: the
   * WhatsApp username a Cloud API customer chose (display only; kept on a contact known by its BSUID).
   */
  sender?: { number: ChatNumber; name?: string; username?: string };
  /** Sent from the connected phone itself (or echoed back after we sent it). */
  fromMe: boolean;
  /** When WhatsApp says the message was sent. */
  timestamp: Date;
  type: MediaType;
  /** Text, caption, or "" for media without caption. */
  body: string;
  media?: InboundMedia;
  location?: InboundLocation;
  /** Raw vCard text of a shared contact (type "vcard"). */
  vcard?: string;
  /** The wid of the message this one replies to. */
  quotedWid?: string;
  /** Provider data worth keeping (JSON-safe) to quote, delete or re-download later. */
  raw?: unknown;
}

/** -1 refused by WhatsApp (see MessageUpdate.error), 0 queued, 1 accepted by the server, 2 delivered, 3 read, 4 played. */
export type Ack = -1 | 0 | 1 | 2 | 3 | 4;

export interface MessageUpdate {
  wid: string;
  chat: ChatNumber;
  /**
   * The id Zapdesk chose for its own message before sending, when the provider echoes it (the
   * Cloud API's `biz_opaque_callback_data`). A status whose `wid` is unknown names the row by it:
   * the send's answer was lost, so the row adopts `wid` as its provider id.
   */
  chosenWid?: string;
  fromMe?: boolean;
  ack?: Ack;
  /** Why WhatsApp refused the message (with ack -1): the provider's code and a readable reason. */
  error?: { code: string; title: string };
  /** New text after an edit. */
  editedBody?: string;
  /** Deleted for everyone. */
  revoked?: boolean;
  /**
   * Who sent an edit or revoke, when it did not come from us: only the target's own author may
   * change a message (another group member must not rewrite someone else's words).
   */
  author?: ChatNumber;
  /** A reaction on the message; an empty emoji withdraws the participant's reaction. */
  reaction?: { by: ChatNumber; name?: string; emoji: string; fromMe: boolean };
}

/** A customer's LID and phone number are the same person (from lid-mapping.update and *Alt fields). */
export interface LidMapping {
  kind?: "lid";
  /** "<lid>@lid" */
  lid: string;
  /** The phone number, digits only. */
  pn: string;
}

/** A call is stored as a line of the ticket under this prefix plus its call id (no WhatsApp message). */
export const CALL_WID_PREFIX = "call-";

/** A Cloud API business-scoped user id (BSUID) and a phone number are the same person (a payload carried both). */
export interface BsuidMapping {
  kind: "bsuid";
  /** "BR.1502576394655843" */
  bsuid: string;
  /** The phone number (wa_id), digits only. */
  pn: string;
  /** The WhatsApp username, when the customer chose one (display only). */
  username?: string;
}

/**
 * The customer's address changed (Cloud `user_changed_number`, `user_changed_user_id`): the contact
 * moves from `from` to `to` and keeps its history and open ticket; nothing goes to `from` again.
 */
export interface AddressChange {
  kind: "changed";
  /** The old address: a phone number or a BSUID. */
  from: ChatNumber;
  /** The new one: a phone number (number change) or a BSUID (user id change). */
  to: ChatNumber;
  /** The customer's new BSUID, when a number change reports it (a new number means a new BSUID). */
  bsuid?: string;
}

/** Who a customer is, as a channel learned it: the pipeline's identity module (contact-identity.ts) applies it. */
export type IdentityMapping = LidMapping | BsuidMapping | AddressChange;

export interface InboundCall {
  callId: string;
  from: ChatNumber;
  isGroup: boolean;
  isVideo: boolean;
  timestamp: Date;
  /** The call is over (the Cloud API reports its end): answered or missed, and how long it lasted. */
  ended?: { answered: boolean; durationSeconds?: number };
}

export interface PhoneContact {
  number: ChatNumber;
  name: string;
}

export interface OutboundMedia {
  data: Buffer;
  mimetype: string;
  filename: string;
  /** Send audio as a voice note (push-to-talk). */
  asVoice?: boolean;
}

export interface OutboundMessage {
  /**
   * The WhatsApp message id to use, chosen by Zapdesk before sending so that the echo
   * of this message matches the stored row. A channel that cannot choose ids returns
   * its own in SentMessage.wid.
   */
  id?: string;
  to: ChatNumber;
  isGroup: boolean;
  body: string;
  media?: OutboundMedia;
  /** The message being replied to, as stored: its wid, direction, text and provider data. */
  quoted?: { wid: string; fromMe: boolean; body: string; raw?: unknown };
  /** An approved template (Cloud API); `body` then holds its rendered text for the history. */
  template?: { name: string; language: string; components: unknown[] };
}

export interface SentMessage {
  wid: string;
  timestamp: Date;
  /**
   * The address WhatsApp itself knows the recipient by, when the provider's answer names one that
   * differs from `to` (the Cloud API's `contacts[0].wa_id`: a Brazilian number typed with the ninth
   * digit for an account WhatsApp knows without it). The outbox moves the contact to it.
   */
  canonicalTo?: ChatNumber;
  /** The full message as the provider built it, kept on the row to answer resend requests later. */
  raw?: unknown;
  /** 1 when the provider's answer already means WhatsApp's server took it (QR); absent: wait for a status. */
  ack?: Ack;
}

/**
 * A send the provider refused. `permanent` ones fail the message (ack -1, the reason shown to the
 * agent, who may retry); the others are retried by the outbox, not before `retryAfterMs` when given.
 */
export class SendFailure extends Error {
  constructor(
    readonly code: string,
    readonly title: string,
    readonly permanent: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(`${code}: ${title}`);
    this.name = "SendFailure";
  }
}

/**
 * A send whose outcome nobody knows: the request left, but its answer never came (a timeout
 * after the body was written). WhatsApp may well have taken it, so sending it again could give
 * the customer two copies: the outbox does not resend it, and the provider's status reports
 * (the Cloud API's status webhook, by `wid` when the channel chose it) settle it later.
 */
export class SendOutcomeUnknown extends Error {
  constructor(
    readonly reason: string,
    /** The id the message would have, when the channel knows it before the answer (QR sends choose it). */
    readonly wid?: string,
    /** The send, when it may still answer (undefined if it fails): a late answer settles the message. */
    readonly late?: Promise<SentMessage | undefined>,
  ) {
    super(`outcome unknown: ${reason}`);
    this.name = "SendOutcomeUnknown";
  }
}

/**
 * Why a session ended without being asked to. The session manager decides what follows:
 * "dropped" reconnects with backoff; "loggedOut" (unpaired from the phone) and "qrTimeout"
 * (the link was not made: nobody scanned, or, told by its statusReason, the pairing failed, stalled
 * or was refused) go DISCONNECTED and wait for an admin to ask for a new QR; "terminal" (client
 * outdated, replaced elsewhere, banned, token invalid) goes DISCONNECTED with its statusReason and
 * is not retried, since retrying cannot help.
 */
export type CloseReason = "dropped" | "loggedOut" | "qrTimeout" | "terminal";

/**
 * What WhatsApp reported about the number's restrictions (QR); each report carries the part it is
 * about. `timeLock`: the reach-out time-lock (no new chats until `endsAt`). `newChatCap`: the
 * monthly cap on new chats (WhatsApp's status NONE, FIRST_WARNING, SECOND_WARNING or CAPPED).
 */
export interface RestrictionReport {
  timeLock?: { active: boolean; endsAt?: Date; enforcementType?: string };
  newChatCap?: { used?: number; total?: number; status?: string; cycleEndsAt?: Date };
}

/** What a channel reports; the session manager forwards it to the pipeline and the connection service. */
export interface ChannelHandlers {
  onQr(qr: string): void;
  /** Pairing by phone number: the code the admin types on the phone. */
  onPairingCode(code: string): void;
  onStatus(status: ConnectionStatus): void;
  /** Not called for a stop() or logout() the manager requested. */
  onClosed(info: { reason: CloseReason; error?: string; statusReason?: ConnectionStatusReason }): void;
  onMessage(message: InboundMessage): Promise<void>;
  onUpdate(update: MessageUpdate): Promise<void>;
  onCall(call: InboundCall): Promise<void>;
  /** Two addresses were learned to be one customer, or a customer's address changed: the pipeline merges or moves them. */
  onIdentity(mapping: IdentityMapping): Promise<void>;
  /** WhatsApp restricted the number, or lifted or updated a restriction (channels that have none never call it). */
  onRestriction?(report: RestrictionReport): void;
}

/** A live session of one connection. */
export interface ChannelSession {
  /** Connect; QR / status / message events start flowing. Resolves once the attempt has started. */
  start(): Promise<void>;
  /** Close the socket, keep the pairing. */
  stop(): Promise<void>;
  /** Unpair the phone and forget the auth state. */
  logout(): Promise<void>;
  send(message: OutboundMessage): Promise<SentMessage>;
  /** Delete for everyone. */
  deleteMessage(target: { chat: ChatNumber; isGroup: boolean; wid: string; fromMe: boolean; raw?: unknown }): Promise<void>;
  markRead(target: { chat: ChatNumber; isGroup: boolean; wids: string[] }): Promise<void>;
  /** Throws ERR_WAPP_INVALID_CONTACT (AppError) when the number has no WhatsApp. Returns the canonical number. */
  checkNumber(number: ChatNumber): Promise<ChatNumber>;
  profilePictureUrl(chat: ChatNumber, isGroup: boolean): Promise<string | undefined>;
  listContacts(): Promise<PhoneContact[]>;
  rejectCall(call: InboundCall): Promise<void>;
  /** Re-download media of a stored message from its provider data (retry after a failure), as a stream. */
  downloadMedia(raw: unknown): Promise<MediaSource>;
  /** Show the customer that an agent is typing, or stopped; best effort (channels without it do nothing). */
  sendPresence(target: { chat: ChatNumber; isGroup: boolean; state: "composing" | "paused" }): Promise<void>;
}

export interface ChannelContext {
  whatsappId: number;
  /** What the channel reads and writes in the database (auth state, stored messages, settings). */
  store: ChannelStore;
  handlers: ChannelHandlers;
  logger: FastifyBaseLogger;
  /** The durable inbound log: a channel records what it receives here before any other work. */
  inbox: InboundLog;
  /** Where a channel keeps what it receives while the inbound log cannot be written (QR: already receipted). */
  spool?: InboundSpool;
  /** Largest inbound media downloaded, in bytes; bigger files are stored as "too large". */
  mediaMaxBytes: number;
}

export type ChannelFactory = (context: ChannelContext) => ChannelSession;

export type ChannelFactories = Record<ConnectionProvider, ChannelFactory>;
