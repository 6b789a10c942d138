import { isJidBroadcast, isJidGroup, isJidNewsletter, isLidUser, jidDecode, type WAMessageKey } from "@whiskeysockets/baileys";
import type { ChatNumber } from "../channel.js";

/**
 * A JID's user part: "5511999990001:12@s.whatsapp.net" -> "5511999990001". Phone numbers are
 * digits; group ids are kept as WhatsApp writes them (old groups are "creator-timestamp").
 */
export function jidToNumber(jid: string): ChatNumber {
  const user = jidDecode(jid)?.user ?? jid.split("@")[0].split(":")[0];
  return isJidGroup(jid) ? user : user.replace(/\D/g, "");
}

export function numberToJid(number: ChatNumber, isGroup: boolean): string {
  if (number.includes("@")) return number;
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
 * puts the phone-number JID next to it when the server sends one: prefer that.
 */
export function phoneJid(jid: string, alternative: string | null | undefined, lidToPn?: ReadonlyMap<string, string>): string {
  if (!isLidUser(jid)) return jid;
  if (alternative && !isLidUser(alternative)) return alternative;
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
  if (isLidUser(chat)) lids.push(chat);
  if (key.participant) {
    const author = authorJid(key);
    if (isLidUser(author)) lids.push(author);
  }
  return lids;
}
