import {
  BufferJSON,
  getContentType,
  isJidGroup,
  type MessageUserReceiptUpdate,
  normalizeMessageContent,
  proto,
  toNumber,
  type WACallEvent,
  type WAMessage,
  type WAMessageUpdate,
} from "@whiskeysockets/baileys";
import type { Ack, InboundCall, InboundMessage, MessageUpdate } from "../channel.js";
import { authorJid, chatJid, isIgnoredChat, jidToNumber } from "./baileys-jid.js";

/**
 * Pure translation from Baileys' shapes to the channel's (design §5). No socket here, so every
 * rule can be tested with real proto objects.
 */

export interface TranslateContext {
  /** Phone-number JIDs for LIDs Baileys did not annotate, looked up by the adapter. */
  lidToPn?: ReadonlyMap<string, string>;
  groupName?: string;
  /** Fetches a media message's bytes (needs the socket for re-upload requests). */
  download(message: WAMessage): Promise<Buffer>;
}

/** What we keep of a WAMessage to quote, delete or re-download it later (JSON-safe). */
export interface BaileysRaw {
  key: WAMessage["key"];
  message: unknown;
  messageTimestamp?: number;
}

export function toRaw(message: WAMessage): BaileysRaw {
  const plain = { key: message.key, message: message.message, messageTimestamp: toNumber(message.messageTimestamp) || undefined };
  return JSON.parse(JSON.stringify(plain, BufferJSON.replacer));
}

export function isBaileysRaw(raw: unknown): raw is BaileysRaw {
  const key = (raw as BaileysRaw | null)?.key;
  return typeof raw === "object" && raw !== null && typeof key === "object" && key !== null && typeof key.id === "string";
}

/** Back to a WAMessage with real Buffers and protobuf messages. */
export function fromRaw(raw: BaileysRaw): WAMessage {
  const revived = JSON.parse(JSON.stringify(raw), BufferJSON.reviver) as BaileysRaw;
  return {
    key: revived.key,
    message: revived.message ? proto.Message.fromObject(revived.message as object) : undefined,
    messageTimestamp: revived.messageTimestamp,
  };
}

const timestampOf = (message: WAMessage) => new Date((toNumber(message.messageTimestamp) || Date.now() / 1000) * 1000);

/** The text of a message's content, for bodies, captions and edits. */
export function textOf(content: proto.IMessage | null | undefined): string {
  const c = normalizeMessageContent(content);
  if (!c) return "";
  return (
    c.conversation ??
    c.extendedTextMessage?.text ??
    c.imageMessage?.caption ??
    c.videoMessage?.caption ??
    c.documentMessage?.caption ??
    c.buttonsResponseMessage?.selectedDisplayText ??
    c.listResponseMessage?.title ??
    c.templateButtonReplyMessage?.selectedDisplayText ??
    ""
  );
}

function contextInfoOf(content: proto.IMessage): proto.IContextInfo | null | undefined {
  const type = getContentType(content);
  const inner = type ? (content[type] as { contextInfo?: proto.IContextInfo | null } | null) : undefined;
  return typeof inner === "object" ? inner?.contextInfo : undefined;
}

type MediaContent = proto.Message.IImageMessage &
  proto.Message.IVideoMessage &
  proto.Message.IAudioMessage &
  proto.Message.IDocumentMessage &
  proto.Message.IStickerMessage;

const MEDIA_TYPES = {
  imageMessage: "image",
  videoMessage: "video",
  ptvMessage: "video",
  audioMessage: "audio",
  documentMessage: "document",
  stickerMessage: "sticker",
} as const;

const TEXT_TYPES = new Set([
  "conversation",
  "extendedTextMessage",
  "buttonsResponseMessage",
  "listResponseMessage",
  "templateButtonReplyMessage",
]);

/**
 * A chat message as the pipeline wants it, or undefined for what is not one: protocol
 * messages (edits and revokes are updates), reactions, polls, key distribution, status,
 * broadcast lists and channels.
 */
export function toInboundMessage(message: WAMessage, context: TranslateContext): InboundMessage | undefined {
  const { key } = message;
  if (!key.id || isIgnoredChat(key.remoteJid)) return undefined;
  const content = normalizeMessageContent(message.message);
  if (!content) return undefined;
  const type = getContentType(content);
  if (!type) return undefined;

  const isGroup = isJidGroup(key.remoteJid ?? "") === true;
  const fromMe = !!key.fromMe;
  const base: InboundMessage = {
    wid: key.id,
    chat: jidToNumber(chatJid(key, context.lidToPn)),
    isGroup,
    groupName: isGroup ? context.groupName : undefined,
    sender: fromMe ? undefined : { number: jidToNumber(authorJid(key, context.lidToPn)), name: message.pushName || undefined },
    fromMe,
    timestamp: timestampOf(message),
    type: "chat",
    body: "",
    quotedWid: contextInfoOf(content)?.stanzaId || undefined,
    raw: toRaw(message),
  };

  if (TEXT_TYPES.has(type)) return { ...base, body: textOf(content) };

  if (type in MEDIA_TYPES) {
    const media = content[type] as MediaContent;
    const mediaType = MEDIA_TYPES[type as keyof typeof MEDIA_TYPES];
    return {
      ...base,
      type: mediaType,
      body: media.caption ?? "",
      media: {
        mimetype: media.mimetype ?? (mediaType === "sticker" ? "image/webp" : "application/octet-stream"),
        filename: media.fileName ?? undefined,
        download: () => context.download(message),
      },
    };
  }

  if (type === "locationMessage" || type === "liveLocationMessage") {
    const location = (content.locationMessage ?? content.liveLocationMessage) as proto.Message.ILocationMessage;
    const description = [location.name, location.address].filter(Boolean).join("\n") || undefined;
    return {
      ...base,
      type: "location",
      body: description ?? location.comment ?? "",
      location: {
        latitude: location.degreesLatitude ?? 0,
        longitude: location.degreesLongitude ?? 0,
        description,
        thumbnailBase64: location.jpegThumbnail?.length ? Buffer.from(location.jpegThumbnail).toString("base64") : undefined,
      },
    };
  }

  if (type === "contactMessage" && content.contactMessage?.vcard) {
    return { ...base, type: "vcard", body: content.contactMessage.displayName ?? "", vcard: content.contactMessage.vcard };
  }

  if (type === "contactsArrayMessage") {
    const contacts = content.contactsArrayMessage?.contacts ?? [];
    const vcards = contacts.map((c) => c.vcard).filter((v): v is string => !!v);
    if (vcards.length === 0) return undefined;
    const names = contacts.map((c) => c.displayName).filter(Boolean);
    return {
      ...base,
      type: "vcard",
      body: content.contactsArrayMessage?.displayName || names.join(", "),
      vcard: vcards.join("\n"),
    };
  }

  return undefined;
}

/** Edits and revokes arrive as protocol messages inside messages.upsert. */
export function toProtocolUpdate(message: WAMessage, lidToPn?: ReadonlyMap<string, string>): MessageUpdate | undefined {
  if (isIgnoredChat(message.key.remoteJid)) return undefined;
  const protocol = normalizeMessageContent(message.message)?.protocolMessage;
  const target = protocol?.key?.id;
  if (!protocol || !target) return undefined;
  // The author of the protocol message is also the author of the message it changes.
  const base = { wid: target, chat: jidToNumber(chatJid(message.key, lidToPn)), fromMe: !!message.key.fromMe };
  if (protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) return { ...base, revoked: true };
  if (protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT && protocol.editedMessage) {
    return { ...base, editedBody: textOf(protocol.editedMessage) };
  }
  return undefined;
}

/** WebMessageInfo.Status (ERROR 0, PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5) -> ack 0-4. */
export function statusToAck(status: number | null | undefined): Ack | undefined {
  if (status === null || status === undefined || status <= proto.WebMessageInfo.Status.ERROR) return undefined;
  return Math.min(4, status - 1) as Ack;
}

/**
 * Acks from messages.update. Edits and revokes also show up here, derived by Baileys from
 * the protocol message we already handle in messages.upsert, so they are not repeated.
 */
export function toAckUpdate(update: WAMessageUpdate, lidToPn?: ReadonlyMap<string, string>): MessageUpdate | undefined {
  const { key } = update;
  if (!key.id || isIgnoredChat(key.remoteJid)) return undefined;
  const ack = statusToAck(update.update.status);
  if (ack === undefined) return undefined;
  return { wid: key.id, chat: jidToNumber(chatJid(key, lidToPn)), fromMe: !!key.fromMe, ack };
}

/** Per-recipient receipts (groups, and some 1:1 chats): the highest one reached. */
export function toReceiptUpdate(
  receipt: MessageUserReceiptUpdate,
  lidToPn?: ReadonlyMap<string, string>,
): MessageUpdate | undefined {
  const { key } = receipt;
  if (!key.id || isIgnoredChat(key.remoteJid)) return undefined;
  const r = receipt.receipt;
  const ack: Ack | undefined = r.playedTimestamp ? 4 : r.readTimestamp ? 3 : r.receiptTimestamp ? 2 : undefined;
  if (ack === undefined) return undefined;
  return { wid: key.id, chat: jidToNumber(chatJid(key, lidToPn)), fromMe: !!key.fromMe, ack };
}

/** Only the offer is a new call; ringing, accept, reject and terminate follow it. */
export function toInboundCall(call: WACallEvent): InboundCall | undefined {
  if (call.status !== "offer") return undefined;
  const isGroup = !!call.isGroup;
  const from = call.callerPn && !isGroup ? call.callerPn : isGroup && call.groupJid ? call.groupJid : call.from;
  return { callId: call.id, from: jidToNumber(from), isGroup, isVideo: !!call.isVideo, timestamp: call.date ?? new Date() };
}
