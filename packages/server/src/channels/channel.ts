import type { ConnectionProvider, ConnectionStatus, MediaType } from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client.js";

/**
 * The one interface every WhatsApp transport implements (design §5). A channel
 * only translates between its library and these shapes: it never touches tickets,
 * contacts or sockets. The session manager owns live sessions; the inbound
 * pipeline consumes the events.
 */

/** A WhatsApp chat address as digits: a phone number, or a group id (e.g. "120363041234567890"). */
export type ChatNumber = string;

export interface InboundMedia {
  mimetype: string;
  filename?: string;
  /** Fetch the bytes; may fail (expired media), the pipeline then stores the message with a media error. */
  download(): Promise<Buffer>;
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
  /** Who wrote it: the customer (or the group participant). Absent for fromMe. */
  sender?: { number: ChatNumber; name?: string };
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

export type Ack = 0 | 1 | 2 | 3 | 4;

export interface MessageUpdate {
  wid: string;
  chat: ChatNumber;
  fromMe?: boolean;
  ack?: Ack;
  /** New text after an edit. */
  editedBody?: string;
  /** Deleted for everyone. */
  revoked?: boolean;
}

export interface InboundCall {
  callId: string;
  from: ChatNumber;
  isGroup: boolean;
  isVideo: boolean;
  timestamp: Date;
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
}

export interface SentMessage {
  wid: string;
  timestamp: Date;
  raw?: unknown;
}

/**
 * Why a session ended without being asked to. The session manager decides what follows:
 * "dropped" reconnects with backoff; "loggedOut" (unpaired from the phone) and "qrTimeout"
 * (nobody scanned) go DISCONNECTED and wait for an admin to ask for a new QR.
 */
export type CloseReason = "dropped" | "loggedOut" | "qrTimeout";

/** What a channel reports; the session manager forwards it to the pipeline and the connection service. */
export interface ChannelHandlers {
  onQr(qr: string): void;
  onStatus(status: ConnectionStatus): void;
  /** Not called for a stop() or logout() the manager requested. */
  onClosed(info: { reason: CloseReason; error?: string }): void;
  onMessage(message: InboundMessage): Promise<void>;
  onUpdate(update: MessageUpdate): Promise<void>;
  onCall(call: InboundCall): Promise<void>;
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
  /** Re-download media of a stored message from its provider data (retry after a failure). */
  downloadMedia(raw: unknown): Promise<Buffer>;
}

export interface ChannelContext {
  whatsappId: number;
  db: Db;
  handlers: ChannelHandlers;
  logger: FastifyBaseLogger;
}

export type ChannelFactory = (context: ChannelContext) => ChannelSession;

export type ChannelFactories = Record<ConnectionProvider, ChannelFactory>;
