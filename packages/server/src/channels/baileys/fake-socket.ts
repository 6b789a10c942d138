import { EventEmitter } from "node:events";
import {
  type AnyMessageContent,
  type BaileysEventEmitter,
  type BaileysEventMap,
  type GroupMetadata,
  type MiscMessageGenerationOptions,
  proto,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
} from "@whiskeysockets/baileys";
import type { BaileysSocket } from "./baileys-channel.js";

/** Baileys' emitter contract over Node's EventEmitter, so tests emit the real event names and payloads. */
export class FakeEventEmitter implements BaileysEventEmitter {
  private readonly inner = new EventEmitter();
  on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) {
    this.inner.on(event, listener);
  }
  off<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) {
    this.inner.off(event, listener);
  }
  removeAllListeners<T extends keyof BaileysEventMap>(event: T) {
    this.inner.removeAllListeners(event);
  }
  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]) {
    return this.inner.emit(event, arg);
  }
}

export interface SentCall {
  jid: string;
  content: AnyMessageContent;
  options?: MiscMessageGenerationOptions;
}

/** An error shaped like Baileys' Boom close errors (output.statusCode is what the adapter reads). */
export function closeError(statusCode: number, message = "Connection Failure"): Error {
  return Object.assign(new Error(message), { output: { statusCode } });
}

let sequence = 0;

/**
 * A stand-in for makeWASocket's result: records what the adapter asks WhatsApp to do and
 * answers like the library does. Only the socket boundary is fake; events are Baileys' own shapes.
 */
export class FakeSocket implements BaileysSocket {
  readonly ev = new FakeEventEmitter();
  readonly sent: SentCall[] = [];
  readonly reads: WAMessageKey[][] = [];
  readonly rejected: { callId: string; from: string }[] = [];
  readonly groupQueries: string[] = [];
  loggedOut = false;
  ended = false;
  onWhatsAppResult: () => Promise<{ jid: string; exists: boolean }[] | undefined> = async () => [];
  failSend?: Error;
  lidMap = new Map<string, string>();
  readonly signalRepository = { lidMapping: { getPNForLID: async (lid: string) => this.lidMap.get(lid) ?? null } };

  constructor(readonly config: UserFacingSocketConfig) {}

  sendMessage = async (jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage> => {
    if (this.failSend) throw this.failSend;
    this.sent.push({ jid, content, options });
    sequence += 1;
    // Baileys uses the caller's messageId when given, as the real socket does.
    const id = options?.messageId ?? `3EB0FAKE${String(sequence).padStart(8, "0")}`;
    const message =
      "text" in content && typeof content.text === "string"
        ? { conversation: content.text }
        : { extendedTextMessage: { text: "" } };
    return {
      key: { remoteJid: jid, fromMe: true, id },
      message: proto.Message.fromObject(message),
      messageTimestamp: 1_700_000_500,
    };
  };
  readMessages = async (keys: WAMessageKey[]) => {
    this.reads.push(keys);
  };
  onWhatsApp = async (..._numbers: string[]) => this.onWhatsAppResult();
  profilePictureUrl = async (jid: string): Promise<string | undefined> => {
    if (jid.startsWith("0")) throw new Error("item-not-found");
    return `https://pps.whatsapp.net/${jid}.jpg`;
  };
  rejectCall = async (callId: string, from: string) => {
    this.rejected.push({ callId, from });
  };
  groupMetadata = async (jid: string): Promise<GroupMetadata> => {
    this.groupQueries.push(jid);
    return { id: jid, subject: "Team", participants: [], owner: undefined } as GroupMetadata;
  };
  logout = async () => {
    this.loggedOut = true;
  };
  end = async (error: Error | undefined) => {
    this.ended = true;
    this.ev.emit("connection.update", { connection: "close", lastDisconnect: { error, date: new Date() } });
  };
  updateMediaMessage = async (message: WAMessage) => message;

  /** What WhatsApp does: the connection opens / a QR arrives / it closes with a code. */
  open() {
    this.ev.emit("connection.update", { connection: "open" });
  }
  qr(code: string) {
    this.ev.emit("connection.update", { qr: code });
  }
  close(statusCode: number) {
    this.ev.emit("connection.update", {
      connection: "close",
      lastDisconnect: { error: closeError(statusCode), date: new Date() },
    });
  }
}
