import type { proto, WAMessageKey } from "@whiskeysockets/baileys";
import type { ChannelStore } from "../channel-store.js";
import { fromRaw, isBaileysRaw } from "./baileys-translate.js";

type Store = Pick<ChannelStore, "messageRaws">;

/** The content of a message we stored (its provider data), for Baileys' resend requests. */
export async function storedMessage(
  store: Store,
  whatsappId: number,
  wid: string | null | undefined,
): Promise<proto.IMessage | undefined> {
  if (!wid) return undefined;
  const raw = (await store.messageRaws(whatsappId, [wid])).get(wid);
  return isBaileysRaw(raw) ? (fromRaw(raw).message ?? undefined) : undefined;
}

/** The stored keys (with group participants) of messages, by wid. */
export async function storedKeys(store: Store, whatsappId: number, wids: string[]): Promise<Map<string, WAMessageKey>> {
  const keys = new Map<string, WAMessageKey>();
  if (wids.length === 0) return keys;
  for (const [wid, raw] of await store.messageRaws(whatsappId, wids)) {
    if (isBaileysRaw(raw)) keys.set(wid, fromRaw(raw).key);
  }
  return keys;
}

/**
 * Chats with an active ticket on the connection, each with the time of its newest stored message:
 * history newer than that is a gap to fill; anything older is already there or predates the ticket.
 * A chat is found under every address WhatsApp may use for it: the contact's number, its LID, and
 * for a contact stored by LID the number the LID store knows for it.
 */
export async function activeChats(store: Pick<ChannelStore, "activeChats">, whatsappId: number): Promise<Map<string, Date>> {
  const chats = new Map<string, Date>();
  for (const chat of await store.activeChats(whatsappId)) {
    const newest = chat.newest ?? new Date(0);
    for (const address of chat.addresses) chats.set(address, newest);
  }
  return chats;
}

/** The number a connection pairs by code instead of QR (digits), when the admin chose that. */
export async function pairingPhoneOf(store: Pick<ChannelStore, "pairingPhone">, whatsappId: number): Promise<string | undefined> {
  const phone = await store.pairingPhone(whatsappId);
  return phone?.replace(/\D/g, "") || undefined;
}
