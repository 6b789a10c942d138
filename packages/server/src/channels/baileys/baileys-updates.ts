import { type MessageUserReceiptUpdate, proto, type WACallEvent, type WAMessageUpdate } from "@whiskeysockets/baileys";
import type { Ack, InboundCall, MessageUpdate } from "../channel.js";
import { chatJid, identityOf, isIgnoredChat, jidToNumber } from "./baileys-jid.js";

/**
 * Acks, refusals, receipts and calls, from Baileys' shapes to the channel's. Pure, so each rule
 * is tested with the payloads Baileys really emits (see the real-socket suite).
 */

/** Why WhatsApp's server refused a message (an `ack` stanza with an error), in words an agent can act on. */
const REFUSALS: Record<string, string> = {
  "463":
    "WhatsApp refused the message: this number may not start new chats right now (account restricted, or no recent conversation with this contact). Retrying counts as another attempt; wait for the customer to write.",
  "479": "WhatsApp's server rejected the message (often a stale device session). Retry in a few minutes.",
  "421": "WhatsApp refused the message: the chat is not available to this number.",
};

export function refusalTitle(code: string, detail?: string): string {
  return (
    REFUSALS[code] ??
    (detail ? `WhatsApp refused the message: ${detail} (code ${code}).` : `WhatsApp refused the message (code ${code}).`)
  );
}

/** WebMessageInfo.Status (ERROR 0, PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5) -> ack -1..4. */
export function statusToAck(status: number | null | undefined): Ack | undefined {
  if (status === null || status === undefined) return undefined;
  if (status === proto.WebMessageInfo.Status.ERROR) return -1;
  return Math.min(4, Math.max(0, status - 1)) as Ack;
}

/**
 * Acks and refusals from messages.update. A server NACK arrives as status ERROR with the code
 * (and sometimes a text) in messageStubParameters. Edits and revokes also show up here, derived
 * by Baileys from the protocol message already handled in messages.upsert, so they are not repeated.
 */
export function toAckUpdate(update: WAMessageUpdate, lidToPn?: ReadonlyMap<string, string>): MessageUpdate | undefined {
  const { key } = update;
  if (!key.id || isIgnoredChat(key.remoteJid)) return undefined;
  const ack = statusToAck(update.update.status);
  if (ack === undefined) return undefined;
  const base = { wid: key.id, chat: jidToNumber(chatJid(key, lidToPn)), fromMe: !!key.fromMe, ack };
  if (ack !== -1) return base;
  const [code = "unknown", detail] = (update.update.messageStubParameters ?? []).map(String);
  return { ...base, error: { code, title: refusalTitle(code, detail) } };
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

/**
 * Only the offer is a new call; ringing, accept, reject and terminate follow it. A caller known
 * only by LID (no caller_pn) stays a LID address, resolved through the LID store when possible.
 */
export function toInboundCall(call: WACallEvent, lidToPn?: ReadonlyMap<string, string>): InboundCall | undefined {
  if (call.status !== "offer") return undefined;
  const isGroup = !!call.isGroup;
  const caller = call.callerPn && !isGroup ? call.callerPn : isGroup && call.groupJid ? call.groupJid : call.from;
  const from = isGroup ? caller : (lidToPn?.get(caller) ?? caller);
  return { callId: call.id, from: jidToNumber(from), isGroup, isVideo: !!call.isVideo, timestamp: call.date ?? new Date() };
}

/** The LID <-> phone pair a call offer reveals (from is the LID, caller_pn the number). */
export const callIdentity = (call: WACallEvent) => identityOf(call.from, call.callerPn);
