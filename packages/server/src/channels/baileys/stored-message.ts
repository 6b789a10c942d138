import type { proto } from "@whiskeysockets/baileys";
import { and, eq } from "drizzle-orm";
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
