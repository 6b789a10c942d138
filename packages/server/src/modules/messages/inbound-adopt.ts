import { eq } from "drizzle-orm";
import type { MessageUpdate } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { outbox } from "../../db/schema.js";
import * as repo from "./messages.repo.js";

/**
 * The stored message an update is about, locked: by its wid, or, for a message of ours whose
 * send's answer never came (so the row still has the id Zapdesk chose), by that chosen id when
 * the provider echoes it (the Cloud API's biz_opaque_callback_data). Such a row adopts the
 * provider's id, and whatever of it is still in the outbox goes: WhatsApp has it, a resend would
 * be a second copy on the customer's phone.
 */
export async function findUpdateTarget(
  tx: Db,
  whatsappId: number,
  update: MessageUpdate,
): Promise<{ message: repo.MessageRow; adopt?: string } | undefined> {
  const message = await repo.findMessageByWid(tx, whatsappId, update.wid, { lock: true });
  if (message) return { message };
  if (!update.chosenWid || update.fromMe !== true) return undefined;
  const chosen = await repo.findMessageByWid(tx, whatsappId, update.chosenWid, { lock: true });
  if (!chosen?.fromMe) return undefined;
  await tx.delete(outbox).where(eq(outbox.messageId, chosen.id));
  return { message: chosen, adopt: update.wid };
}
