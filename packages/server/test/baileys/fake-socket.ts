import { EventEmitter } from "node:events";
import {
  type AnyMessageContent,
  type BaileysEventEmitter,
  type BaileysEventMap,
  type GroupMetadata,
  type GroupParticipant,
  generateWAMessage,
  type MiscMessageGenerationOptions,
  type ParticipantAction,
  proto,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
} from "@whiskeysockets/baileys";
import type { BaileysSocket } from "../../src/channels/baileys/baileys-channel.js";

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
  /** The message as Baileys' own generator built it (what would be encrypted and relayed). */
  message: WAMessage;
}

/** An error shaped like Baileys' Boom close errors (output.statusCode is what the adapter reads). */
export function closeError(statusCode: number, message = "Connection Failure"): Error {
  return Object.assign(new Error(message), { output: { statusCode } });
}

const OWN_JID = "5511999990000@s.whatsapp.net";
let sequence = 0;

/**
 * A stand-in for makeWASocket's result at the socket boundary, behaving as Baileys does where it
 * matters: sendMessage builds the message with Baileys' generateWAMessage and, unless the config
 * sets emitOwnEvents to false (Baileys' default is true), echoes it as an "append" upsert on the
 * next tick. Server-side happenings (NACKs, participant changes, decryption failures, LID-only
 * chats) are emitted with the payloads Baileys emits for them.
 */
export class FakeSocket implements BaileysSocket {
  readonly ev = new FakeEventEmitter();
  readonly sent: SentCall[] = [];
  readonly reads: WAMessageKey[][] = [];
  readonly rejected: { callId: string; from: string }[] = [];
  readonly groupQueries: string[] = [];
  readonly presences: { type: string; jid?: string }[] = [];
  readonly pairingRequests: string[] = [];
  readonly historyRequests: { count: number; key: WAMessageKey; timestampMs: number }[] = [];
  readonly groups = new Map<string, GroupMetadata>();
  loggedOut = false;
  ended = false;
  onWhatsAppResult: () => Promise<{ jid: string; exists: boolean }[] | undefined> = async () => [];
  failSend?: Error;
  pairingCode = "ABCD1234";
  lidMap = new Map<string, string>();
  readonly signalRepository = { lidMapping: { getPNForLID: async (lid: string) => this.lidMap.get(lid) ?? null } };

  constructor(readonly config: UserFacingSocketConfig) {}

  sendMessage = async (jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage> => {
    if (this.failSend) throw this.failSend;
    sequence += 1;
    const message = await generateWAMessage(jid, content, {
      ...options,
      // Baileys uses the caller's messageId when given, its own otherwise.
      messageId: options?.messageId ?? `3EB0FAKE${String(sequence).padStart(12, "0")}`,
      userJid: this.config.auth?.creds.me?.id ?? OWN_JID,
      upload: async () => ({ mediaUrl: "https://mmg.whatsapp.net/v/t62/fake", directPath: "/v/t62/fake" }),
    });
    this.sent.push({ jid, content, options, message });
    if (this.config.emitOwnEvents !== false) {
      process.nextTick(() => this.ev.emit("messages.upsert", { messages: [message], type: "append" }));
    }
    return message;
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
    return structuredClone(
      this.groups.get(jid) ?? ({ id: jid, subject: "Team", participants: [], owner: undefined } as GroupMetadata),
    );
  };
  logout = async () => {
    this.loggedOut = true;
  };
  end = async (error: Error | undefined) => {
    this.ended = true;
    this.ev.emit("connection.update", { connection: "close", lastDisconnect: { error, date: new Date() } });
  };
  updateMediaMessage = async (message: WAMessage) => message;
  sendPresenceUpdate = async (type: "composing" | "paused" | "available" | "unavailable" | "recording", jid?: string) => {
    this.presences.push({ type, jid });
  };
  /** What Baileys does: `me` is set to the number before the phone confirms, then the code is returned. */
  requestPairingCode = async (phoneNumber: string) => {
    this.pairingRequests.push(phoneNumber);
    const creds = this.config.auth?.creds;
    if (creds) creds.me = { id: `${phoneNumber}@s.whatsapp.net`, name: "~" };
    this.ev.emit("creds.update", { me: creds?.me });
    return this.pairingCode;
  };
  fetchMessageHistory = async (count: number, key: WAMessageKey, timestampMs: number | Long) => {
    this.historyRequests.push({ count, key, timestampMs: Number(timestampMs) });
    return "PDO-REQUEST";
  };

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

  /** A customer's message arrives (as Baileys' decoder emits it). */
  receive(message: WAMessage, type: "notify" | "append" = "notify") {
    this.ev.emit("messages.upsert", { messages: [message], type });
  }

  /** WhatsApp's server refused a message we sent: Baileys' handleBadAck emits exactly this. */
  nack(key: WAMessageKey, code: string) {
    const parameters = code === "463" ? [code, "Your account has been restricted"] : [code];
    this.ev.emit("messages.update", [
      { key: { ...key, fromMe: true }, update: { status: proto.WebMessageInfo.Status.ERROR, messageStubParameters: parameters } },
    ]);
  }

  /** Members joined or left a group; the fake's own metadata changes as WhatsApp's would. */
  participantsUpdate(group: string, action: ParticipantAction, participants: GroupParticipant[]) {
    const metadata =
      this.groups.get(group) ?? ({ id: group, subject: "Team", participants: [], owner: undefined } as GroupMetadata);
    const ids = new Set(participants.map((p) => p.id));
    metadata.participants =
      action === "remove" ? metadata.participants.filter((p) => !ids.has(p.id)) : [...metadata.participants, ...participants];
    this.groups.set(group, metadata);
    this.ev.emit("group-participants.update", { id: group, author: OWN_JID, participants, action });
  }

  /**
   * A message this device could not decrypt ("Bad MAC", or "Message absent from node" for an ad
   * lead): Baileys emits a CIPHERTEXT stub without content.
   */
  ciphertextStub(key: WAMessageKey, pushName = "Ana", reason = "Bad MAC") {
    const stub: WAMessage = {
      key: { fromMe: false, ...key },
      messageTimestamp: Math.floor(Date.now() / 1000),
      pushName,
      messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT,
      messageStubParameters: [reason],
    };
    this.receive(stub);
    return stub;
  }

  /** A customer WhatsApp shows only by LID: no remoteJidAlt, nothing in the LID store. */
  lidOnly(lid: string, content: proto.IMessage, id = `3ALID${++sequence}`, pushName = "Lia"): WAMessage {
    const message: WAMessage = {
      key: { remoteJid: lid, fromMe: false, id },
      messageTimestamp: Math.floor(Date.now() / 1000),
      pushName,
      message: proto.Message.fromObject(content),
    };
    this.receive(message);
    return message;
  }

  /** History sync (the phone's answer to fetchMessageHistory, or the sync after pairing). */
  history(messages: WAMessage[], syncType = proto.HistorySync.HistorySyncType.ON_DEMAND) {
    this.ev.emit("messaging-history.set", { chats: [], contacts: [], messages, syncType, isLatest: false });
  }
}
