import type { proto, WAMessageKey } from "@whiskeysockets/baileys";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contacts, lidMappings, messages, tickets, whatsapps } from "../../db/schema.js";
import { fromRaw, isBaileysRaw } from "./baileys-translate.js";

/** The content of a message we stored (its provider data), for Baileys' resend requests. */
export async function storedMessage(
  db: Db,
  whatsappId: number,
  wid: string | null | undefined,
): Promise<proto.IMessage | undefined> {
  if (!wid) return undefined;
  const [row] = await db
    .select({ raw: messages.raw })
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)))
    .limit(1);
  return row && isBaileysRaw(row.raw) ? (fromRaw(row.raw).message ?? undefined) : undefined;
}

/** The stored keys (with group participants) of messages, by wid. */
export async function storedKeys(db: Db, whatsappId: number, wids: string[]): Promise<Map<string, WAMessageKey>> {
  const keys = new Map<string, WAMessageKey>();
  if (wids.length === 0) return keys;
  const rows = await db
    .select({ wid: messages.wid, raw: messages.raw })
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), inArray(messages.wid, wids)));
  for (const row of rows) {
    if (row.wid && isBaileysRaw(row.raw)) keys.set(row.wid, fromRaw(row.raw).key);
  }
  return keys;
}

/**
 * Chats with an active ticket on the connection, each with the time of its newest stored message:
 * history newer than that is a gap to fill; anything older is already there or predates the ticket.
 * A chat is found under every address WhatsApp may use for it: the contact's number, its LID, and
 * for a contact stored by LID the number the LID store knows for it.
 */
export async function activeChats(db: Db, whatsappId: number): Promise<Map<string, Date>> {
  const rows = await db
    .select({
      number: contacts.number,
      lid: contacts.lid,
      pn: sql<string | null>`(select ${lidMappings.pn} from ${lidMappings} where ${lidMappings.lid} = ${contacts.number})`,
      newest: sql<string | null>`max(${messages.createdAt})`,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(messages, and(eq(messages.ticketId, tickets.id), eq(messages.isNote, false)))
    .where(and(eq(tickets.whatsappId, whatsappId), inArray(tickets.status, ["pending", "open"])))
    .groupBy(contacts.id);
  const chats = new Map<string, Date>();
  for (const row of rows) {
    const newest = row.newest ? new Date(row.newest) : new Date(0);
    for (const address of [row.number, row.lid, row.pn]) if (address) chats.set(address, newest);
  }
  return chats;
}

/** The number a connection pairs by code instead of QR (digits), when the admin chose that. */
export async function pairingPhoneOf(db: Db, whatsappId: number): Promise<string | undefined> {
  const [row] = await db.select({ phone: whatsapps.pairingPhone }).from(whatsapps).where(eq(whatsapps.id, whatsappId));
  return row?.phone?.replace(/\D/g, "") || undefined;
}
