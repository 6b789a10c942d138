import type { SimulatorOutboundMessage } from "@zapdesk/core";
import type { ChannelHandlers, ChatNumber } from "../channel.js";

/** A message the phone knows, so that acks, edits, revokes and quotes can name it by id. */
export interface KnownMessage {
  chat: ChatNumber;
  isGroup: boolean;
  fromMe: boolean;
}

export interface ReadReceipt {
  chat: ChatNumber;
  wids: string[];
  at: Date;
}

/**
 * The simulated phone of one connection and the customers on the other side. It outlives
 * its sessions (a reconnect keeps the pairing and the history), but not the process.
 */
export interface Phone {
  paired: boolean;
  /** Handlers of the CONNECTED session; absent while offline. */
  live?: ChannelHandlers;
  /** Drops the live session as a network failure would. */
  drop?: () => void;
  customers: Map<ChatNumber, string>;
  messages: Map<string, KnownMessage>;
  outbound: SimulatorOutboundMessage[];
  media: Map<string, Buffer>;
  reads: ReadReceipt[];
  rejectedCalls: string[];
  /** What each customer sees of the agents: "composing" while one types. */
  presence: Map<ChatNumber, "composing" | "paused">;
}

// Bounds so that a long benchmark through the simulator does not grow memory without end.
const MAX_MESSAGES = 50_000;
const MAX_OUTBOUND = 5_000;
const MAX_MEDIA = 200;
const MAX_READS = 1_000;

export function newPhone(): Phone {
  return {
    paired: false,
    customers: new Map(),
    messages: new Map(),
    outbound: [],
    media: new Map(),
    reads: [],
    rejectedCalls: [],
    presence: new Map(),
  };
}

function capMap<K, V>(map: Map<K, V>, max: number) {
  while (map.size > max) {
    const first = map.keys().next();
    if (first.done) return;
    map.delete(first.value);
  }
}

function capList<T>(list: T[], max: number) {
  if (list.length > max) list.splice(0, list.length - max);
}

export function rememberMessage(phone: Phone, wid: string, message: KnownMessage) {
  phone.messages.delete(wid);
  phone.messages.set(wid, message);
  capMap(phone.messages, MAX_MESSAGES);
}

export function rememberMedia(phone: Phone, wid: string, data: Buffer) {
  phone.media.set(wid, data);
  capMap(phone.media, MAX_MEDIA);
}

export function recordOutbound(phone: Phone, message: SimulatorOutboundMessage) {
  phone.outbound.push(message);
  capList(phone.outbound, MAX_OUTBOUND);
}

export function recordRead(phone: Phone, read: ReadReceipt) {
  phone.reads.push(read);
  capList(phone.reads, MAX_READS);
}
