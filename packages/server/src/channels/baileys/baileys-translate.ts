import {
  BufferJSON,
  getContentType,
  isJidGroup,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
} from "@whiskeysockets/baileys";
import type { MediaSource } from "../../media/storage.js";
import type { InboundMessage, MessageUpdate } from "../channel.js";
import { isSilentType, isViewOnce, readableText, typeName } from "./baileys-content.js";
import { authorJid, chatJid, isIgnoredChat, jidToNumber } from "./baileys-jid.js";

export { statusToAck, toAckUpdate, toInboundCall, toReceiptUpdate } from "./baileys-updates.js";

/**
 * Pure translation from Baileys' messages to the channel's (design §5). No socket here, so every
 * rule can be tested with real proto objects.
 */

export interface TranslateContext {
  /** Phone-number JIDs for LIDs Baileys did not annotate, looked up by the adapter. */
  lidToPn?: ReadonlyMap<string, string>;
  groupName?: string;
  /** Starts fetching a media message's bytes as a stream (needs the socket for re-upload requests). */
  download(message: WAMessage): Promise<MediaSource>;
}

/** What we keep of a WAMessage to quote, delete, re-download or replay it later (JSON-safe). */
export interface BaileysRaw {
  key: WAMessage["key"];
  message: unknown;
  messageTimestamp?: number;
  pushName?: string;
  /** Why there is no content: a decryption failure (CIPHERTEXT) and Baileys' reason for it. */
  messageStubType?: number;
  messageStubParameters?: string[];
}

/**
 * A customer's message this device could not decrypt: Baileys emits a CIPHERTEXT stub with no
 * content ("Bad MAC", "No session record", "Message absent from node" for click-to-WhatsApp ad
 * leads) after asking for a resend itself (a retry receipt to the sender, a placeholder resend
 * request to the phone). The real copy comes later under the same key id. Stubs of our own
 * devices' messages (the phone's protocol traffic) are not customer messages.
 */
export function isUndecryptable(message: WAMessage): boolean {
  return message.messageStubType === proto.WebMessageInfo.StubType.CIPHERTEXT && !message.message && !message.key.fromMe;
}

export function toRaw(message: WAMessage): BaileysRaw {
  const stub = isUndecryptable(message);
  const plain = {
    key: message.key,
    message: message.message,
    messageTimestamp: toNumber(message.messageTimestamp) || undefined,
    pushName: message.pushName || undefined,
    messageStubType: stub ? (message.messageStubType ?? undefined) : undefined,
    messageStubParameters: stub ? (message.messageStubParameters ?? []).map(String) : undefined,
  };
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
    pushName: revived.pushName,
    ...(revived.messageStubType !== undefined
      ? { messageStubType: revived.messageStubType, messageStubParameters: revived.messageStubParameters ?? [] }
      : {}),
  };
}

const timestampOf = (message: WAMessage) => new Date((toNumber(message.messageTimestamp) || Date.now() / 1000) * 1000);

/** The text of a message's content, for bodies, captions and edits. */
export function textOf(content: proto.IMessage | null | undefined): string {
  const c = normalizeMessageContent(content);
  if (!c) return "";
  const type = getContentType(c);
  return (
    c.conversation ??
    c.extendedTextMessage?.text ??
    c.imageMessage?.caption ??
    c.videoMessage?.caption ??
    c.documentMessage?.caption ??
    (type ? readableText(c, type) : undefined) ??
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

/** Content handled elsewhere: edits and revokes (protocol) and reactions become updates. */
const UPDATE_TYPES = new Set(["protocolMessage", "reactionMessage"]);

const canDownload = (media: MediaContent) => !!media.mediaKey?.length && !!(media.directPath || media.url);

/**
 * A chat message as the pipeline wants it, or undefined for what is not one: edits, revokes
 * and reactions (updates), key distribution and other silent content, status, broadcast lists
 * and channels. Anything a customer wrote that Zapdesk cannot show is kept as "unsupported";
 * a message that could not be decrypted is kept as a "placeholder" until its real copy arrives.
 */
export function toInboundMessage(message: WAMessage, context: TranslateContext): InboundMessage | undefined {
  const { key } = message;
  if (!key.id || isIgnoredChat(key.remoteJid)) return undefined;
  const stub = isUndecryptable(message);
  const content = normalizeMessageContent(message.message);
  if (!content && !stub) return undefined;
  const type = content ? getContentType(content) : undefined;
  if (!stub && (!type || UPDATE_TYPES.has(type) || isSilentType(type))) return undefined;

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
    quotedWid: content ? contextInfoOf(content)?.stanzaId || undefined : undefined,
    raw: toRaw(message),
  };

  if (!content || !type) return { ...base, type: "placeholder" };
  if (type === "conversation" || type === "extendedTextMessage") return { ...base, body: textOf(content) };

  if (type in MEDIA_TYPES) {
    const media = content[type] as MediaContent;
    const mediaType = MEDIA_TYPES[type as keyof typeof MEDIA_TYPES];
    // View-once media usually stays on the phone: without keys there is nothing to download.
    if (isViewOnce(message.message) && !canDownload(media)) {
      return { ...base, type: "unsupported", body: "viewOnce" };
    }
    const size = media.fileLength === null || media.fileLength === undefined ? undefined : toNumber(media.fileLength);
    return {
      ...base,
      type: mediaType,
      body: media.caption ?? "",
      media: {
        mimetype: media.mimetype ?? (mediaType === "sticker" ? "image/webp" : "application/octet-stream"),
        filename: media.fileName ?? undefined,
        size,
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
    if (vcards.length > 0) {
      const names = contacts.map((c) => c.displayName).filter(Boolean);
      return {
        ...base,
        type: "vcard",
        body: content.contactsArrayMessage?.displayName || names.join(", "),
        vcard: vcards.join("\n"),
      };
    }
  }

  const readable = readableText(content, type);
  if (readable) return { ...base, body: readable };
  return { ...base, type: "unsupported", body: typeName(type) };
}

/**
 * Edits, revokes and reactions arrive as messages inside messages.upsert. `author` is who sent
 * the change (the participant in groups, the chat in 1:1), so that the pipeline can refuse one
 * member rewriting another's message.
 */
export function toProtocolUpdate(message: WAMessage, lidToPn?: ReadonlyMap<string, string>): MessageUpdate | undefined {
  if (isIgnoredChat(message.key.remoteJid)) return undefined;
  const content = normalizeMessageContent(message.message);
  const fromMe = !!message.key.fromMe;
  const chat = jidToNumber(chatJid(message.key, lidToPn));
  const author = fromMe ? undefined : jidToNumber(authorJid(message.key, lidToPn));

  const reaction = content?.reactionMessage;
  if (reaction?.key?.id) {
    return {
      wid: reaction.key.id,
      chat,
      reaction: { by: author ?? "me", name: message.pushName || undefined, emoji: reaction.text ?? "", fromMe },
    };
  }

  const protocol = content?.protocolMessage;
  const target = protocol?.key?.id;
  if (!protocol || !target) return undefined;
  const base: MessageUpdate = { wid: target, chat, fromMe, ...(author ? { author } : {}) };
  if (protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) return { ...base, revoked: true };
  if (protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT && protocol.editedMessage) {
    return { ...base, editedBody: textOf(protocol.editedMessage) };
  }
  return undefined;
}
