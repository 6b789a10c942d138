import type { proto, WAMessageKey } from "@whiskeysockets/baileys";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { messages } from "../../db/schema.js";
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
