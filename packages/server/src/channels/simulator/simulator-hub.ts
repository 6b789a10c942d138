import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type {
  MediaType,
  SimulatorAck,
  SimulatorCall,
  SimulatorEdit,
  SimulatorIdentity,
  SimulatorInbound,
  SimulatorOutboundMessage,
  SimulatorReaction,
} from "@zapdesk/core";
import { AppError } from "../../lib/app-error.js";
import type { Ack, ChannelFactory, ChannelHandlers, InboundMessage } from "../channel.js";
import { createSimulatorSession, newWid, type SimulatorRaw, type SimulatorTiming } from "./simulator-channel.js";
import { newPhone, type Phone, type ReadReceipt, rememberMedia, rememberMessage } from "./simulator-phone.js";

export interface SimulatorHubOptions {
  /** How long the QR shows before pairing; default 1.5 s, tests use 0. */
  qrDelayMs?: number;
  now?: () => Date;
}

/**
 * The simulated customers' side of every simulator connection of this process (one hub per
 * process). Everything a customer does is awaited through the session's handlers, so an HTTP
 * call returns once the pipeline has stored the result.
 */
export interface SimulatorHub {
  /** The channel factory for provider "simulator". */
  readonly factory: ChannelFactory;
  inbound(whatsappId: number, input: SimulatorInbound): Promise<{ id: string }>;
  ack(whatsappId: number, input: SimulatorAck): Promise<void>;
  revoke(whatsappId: number, input: { id: string }): Promise<void>;
  edit(whatsappId: number, input: SimulatorEdit): Promise<void>;
  call(whatsappId: number, input: SimulatorCall): Promise<{ callId: string }>;
  react(whatsappId: number, input: SimulatorReaction): Promise<void>;
  /** WhatsApp learns (and tells) that a LID customer has this phone number. */
  identity(whatsappId: number, input: SimulatorIdentity): Promise<void>;
  /** Drop the connection as a network failure would; the session manager reconnects. */
  disconnect(whatsappId: number): void;
  /** What the customers' phones received, oldest first, optionally for one number. */
  outbound(whatsappId: number, to?: string): SimulatorOutboundMessage[];
  /** Read receipts the connection sent (markRead). */
  reads(whatsappId: number): ReadReceipt[];
  rejectedCalls(whatsappId: number): string[];
}

function mediaType(mimetype: string): MediaType {
  if (mimetype === "image/webp") return "sticker";
  const major = mimetype.split("/")[0];
  if (major === "image" || major === "video" || major === "audio") return major;
  return "document";
}

/** The display name of a vCard (its FN line), shown as the body like WhatsApp does. */
function vcardName(vcard: string): string {
  const line = vcard.split(/\r?\n/).find((l) => /^FN[;:]/i.test(l));
  return line ? line.slice(line.indexOf(":") + 1).trim() : "";
}

export function createSimulatorHub(options: SimulatorHubOptions = {}): SimulatorHub {
  const timing: SimulatorTiming = {
    qrDelayMs: options.qrDelayMs ?? 1_500,
    now: options.now ?? (() => new Date()),
  };
  const phones = new Map<number, Phone>();

  const phoneOf = (id: number) => {
    let phone = phones.get(id);
    if (!phone) {
      phone = newPhone();
      phones.set(id, phone);
    }
    return phone;
  };

  const live = (id: number): { phone: Phone; handlers: ChannelHandlers } => {
    const phone = phones.get(id);
    if (!phone?.live) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return { phone, handlers: phone.live };
  };

  const known = (phone: Phone, wid: string) => {
    const message = phone.messages.get(wid);
    if (!message) throw new AppError("ERR_NO_MESSAGE_FOUND");
    return message;
  };

  function toInbound(phone: Phone, input: SimulatorInbound, wid: string): InboundMessage {
    const isGroup = !!input.isGroup;
    const senderNumber = isGroup ? (input.participant ?? input.from) : input.from;
    const name = input.name ?? phone.customers.get(senderNumber);
    const message: InboundMessage = {
      wid,
      chat: input.from,
      isGroup,
      groupName: isGroup ? input.groupName : undefined,
      sender: { number: senderNumber, name },
      fromMe: false,
      timestamp: timing.now(),
      type: "chat",
      body: input.body ?? "",
      quotedWid: input.quotedId,
      raw: { simulator: { wid } } satisfies SimulatorRaw,
    };
    if (input.media) {
      const data = Buffer.from(input.media.dataBase64, "base64");
      rememberMedia(phone, wid, data);
      message.type = mediaType(input.media.mimetype);
      message.media = {
        mimetype: input.media.mimetype,
        filename: input.media.filename,
        download: async () => Readable.from([data]),
      };
    } else if (input.location) {
      message.type = "location";
      message.location = { ...input.location };
      message.body = input.body ?? input.location.description ?? "";
    } else if (input.vcard) {
      message.type = "vcard";
      message.vcard = input.vcard;
      message.body = input.body ?? vcardName(input.vcard);
    }
    return message;
  }

  return {
    factory: (context) => createSimulatorSession(phoneOf(context.whatsappId), context, timing),

    async inbound(id, input) {
      const { phone, handlers } = live(id);
      const wid = input.id ?? newWid();
      const message = toInbound(phone, input, wid);
      if (message.sender?.name) phone.customers.set(message.sender.number, message.sender.name);
      else if (!phone.customers.has(message.sender!.number)) phone.customers.set(message.sender!.number, "");
      rememberMessage(phone, wid, { chat: message.chat, isGroup: message.isGroup, fromMe: false });
      await handlers.onMessage(message);
      return { id: wid };
    },

    async ack(id, input) {
      const { phone, handlers } = live(id);
      const message = known(phone, input.id);
      const record = phone.outbound.find((m) => m.wid === input.id);
      if (record) record.ack = input.ack === -1 ? -1 : Math.max(record.ack, input.ack);
      await handlers.onUpdate({
        wid: input.id,
        chat: message.chat,
        fromMe: message.fromMe,
        ack: input.ack as Ack,
        ...(input.error ? { error: input.error } : {}),
      });
    },

    async react(id, input) {
      const { phone, handlers } = live(id);
      const message = known(phone, input.id);
      await handlers.onUpdate({
        wid: input.id,
        chat: message.chat,
        fromMe: message.fromMe,
        reaction: { by: input.from, name: phone.customers.get(input.from) || undefined, emoji: input.emoji, fromMe: false },
      });
    },

    async identity(id, input) {
      const { handlers } = live(id);
      await handlers.onIdentity(input);
    },

    async revoke(id, input) {
      const { phone, handlers } = live(id);
      const message = known(phone, input.id);
      await handlers.onUpdate({ wid: input.id, chat: message.chat, fromMe: message.fromMe, revoked: true });
    },

    async edit(id, input) {
      const { phone, handlers } = live(id);
      const message = known(phone, input.id);
      await handlers.onUpdate({ wid: input.id, chat: message.chat, fromMe: message.fromMe, editedBody: input.body });
    },

    async call(id, input) {
      const { handlers } = live(id);
      const callId = randomBytes(16).toString("hex").toUpperCase();
      await handlers.onCall({ callId, from: input.from, isGroup: false, isVideo: !!input.isVideo, timestamp: timing.now() });
      return { callId };
    },

    disconnect(id) {
      const { phone } = live(id);
      phone.drop?.();
    },

    outbound(id, to) {
      const list = phones.get(id)?.outbound ?? [];
      return (to ? list.filter((m) => m.to === to) : list).map((m) => ({ ...m, media: m.media && { ...m.media } }));
    },

    reads: (id) => [...(phones.get(id)?.reads ?? [])],
    rejectedCalls: (id) => [...(phones.get(id)?.rejectedCalls ?? [])],
  };
}
