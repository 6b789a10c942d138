import {
  isHostedLidUser,
  isHostedPnUser,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidDecode,
  type WAMessageKey,
} from "@whiskeysockets/baileys";
import { type ChatNumber, type LidMapping, SendFailure } from "../channel.js";
import { isBsuidAddress } from "../chat-address.js";

const isLid = (jid: string | null | undefined): jid is string =>
  !!jid && (isLidUser(jid) === true || isHostedLidUser(jid) === true);
const isPn = (jid: string | null | undefined): jid is string => !!jid && (isPnUser(jid) === true || isHostedPnUser(jid) === true);

/**
 * A JID as the channel's address. Phone numbers become digits ("5511999990001:12@s.whatsapp.net"
 * -> "5511999990001"); group ids are kept as WhatsApp writes them; a LID keeps its server
 * ("2179…@lid"), because its digits are not a phone number and must never be dialled as one.
 */
export function jidToNumber(jid: string): ChatNumber {
  const decoded = jidDecode(jid);
  const user = decoded?.user ?? jid.split("@")[0].split(":")[0];
  if (isJidGroup(jid)) return user;
  if (isLid(jid)) return `${user}@${decoded?.server ?? "lid"}`;
  return user.replace(/\D/g, "");
}

/**
 * The JID to send to: an address with a server ("…@lid") is already one. A Cloud API BSUID has no
 * JID: its digits dialled as a number would reach a stranger, so it is refused for good.
 */
export function numberToJid(number: ChatNumber, isGroup: boolean): string {
  if (number.includes("@")) return number;
  if (!isGroup && isBsuidAddress(number)) {
    throw new SendFailure("ERR_WAPP_INVALID_CONTACT", "A Cloud API user id cannot be reached from a QR connection", true);
  }
  return isGroup ? `${number}@g.us` : `${number.replace(/\D/g, "")}@s.whatsapp.net`;
}

/** Chats we never turn into tickets: status updates, broadcast lists and channels. */
export function isIgnoredChat(jid: string | null | undefined): boolean {
  return !jid || isJidBroadcast(jid) === true || isJidNewsletter(jid) === true;
}

/** Pre-rc keys carried the phone-number JID under other names. */
type LegacyKey = WAMessageKey & { senderPn?: string; participantPn?: string };

/**
 * WhatsApp increasingly addresses people by LID (an opaque id) instead of their number. Baileys
 * puts the other form next to it when the server sends one: prefer the phone number.
 */
export function phoneJid(jid: string, alternative: string | null | undefined, lidToPn?: ReadonlyMap<string, string>): string {
  if (!isLid(jid)) return jid;
  if (isPn(alternative)) return alternative;
  return lidToPn?.get(jid) ?? jid;
}

/** The chat's JID with LIDs resolved to phone numbers when possible. */
export function chatJid(key: WAMessageKey, lidToPn?: ReadonlyMap<string, string>): string {
  const legacy = key as LegacyKey;
  return phoneJid(key.remoteJid ?? "", key.remoteJidAlt ?? legacy.senderPn, lidToPn);
}

/** Who wrote a message: the participant in groups, the chat otherwise. */
export function authorJid(key: WAMessageKey, lidToPn?: ReadonlyMap<string, string>): string {
  const legacy = key as LegacyKey;
  if (key.participant) return phoneJid(key.participant, key.participantAlt ?? legacy.participantPn, lidToPn);
  return chatJid(key, lidToPn);
}

/** LIDs of a key that Baileys gave no phone number for: the adapter asks the LID store about them. */
export function unresolvedLids(key: WAMessageKey): string[] {
  const lids: string[] = [];
  const chat = chatJid(key);
  if (isLid(chat)) lids.push(chat);
  if (key.participant) {
    const author = authorJid(key);
    if (isLid(author)) lids.push(author);
  }
  return lids;
}

/** A LID and a phone number known to be one person, as the pipeline records it; undefined unless it is one of each. */
export function identityOf(a: string | null | undefined, b: string | null | undefined): LidMapping | undefined {
  const lid = isLid(a) ? a : isLid(b) ? b : undefined;
  const pn = isPn(a) ? a : isPn(b) ? b : undefined;
  if (!lid || !pn) return undefined;
  return { lid: jidToNumber(lid), pn: jidToNumber(pn) };
}

/** Every LID <-> phone pair a message key reveals (the chat's and the group participant's *Alt fields). */
export function keyIdentities(key: WAMessageKey): LidMapping[] {
  const legacy = key as LegacyKey;
  return [
    identityOf(key.remoteJid, key.remoteJidAlt ?? legacy.senderPn),
    identityOf(key.participant, key.participantAlt ?? legacy.participantPn),
  ].filter((m): m is LidMapping => m !== undefined);
}
