import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { messages, tickets } from "../../db/schema.js";
import type { Ingest } from "./inbound-store.js";
import * as repo from "./messages.repo.js";
import { refreshPreview } from "./outbound.js";

/**
 * A customer's message that WhatsApp delivered but this device could not decrypt is stored as a
 * `placeholder` (empty, unread, its ticket created as for any message). Its real copy arrives
 * later under the same id (the sender's retry, the phone's resend) and must replace it instead of
 * being dropped as a duplicate. The one-message path and the batch both decide it here.
 */
export const PLACEHOLDER_TYPE = "placeholder";

/** Whether `item`, whose id is already stored as `stored`, is the real copy of a placeholder. */
export function replacesPlaceholder(stored: { mediaType: string }, item: Pick<Ingest, "type">): boolean {
  return stored.mediaType === PLACEHOLDER_TYPE && item.type !== PLACEHOLDER_TYPE;
}

export interface Replaced {
  messageId: number;
  ticketId: number;
  /** The ticket's preview or unread count changed: its update is published too. */
  ticketChanged: boolean;
}

/**
 * The placeholder row rewritten with the real copy, in the caller's transaction: content, type,
 * media state, quote and raw data; the ticket's preview when it showed the placeholder. The row
 * stays unread, and becomes unread again (one more on the ticket) if an agent had already opened
 * the ticket: they saw a placeholder, not the message. Undefined when another copy won the race.
 */
export async function replacePlaceholder(
  tx: Db,
  whatsappId: number,
  placeholder: repo.MessageRow,
  item: Ingest,
): Promise<Replaced | undefined> {
  const quoted = item.quotedWid ? await repo.findMessageByWid(tx, whatsappId, item.quotedWid) : undefined;
  // Conditional on still being a placeholder: two copies handled at once replace it once.
  const [row] = await tx
    .update(messages)
    .set({
      body: item.body,
      mediaType: item.type,
      mediaPath: item.media?.path ?? null,
      mediaName: item.media?.name ?? item.failedMedia?.name ?? null,
      mediaMime: item.media?.mime ?? item.failedMedia?.mime ?? null,
      mediaError: item.mediaError ?? null,
      quotedMsgId: quoted?.id ?? null,
      raw: item.raw ?? null,
      read: false,
      updatedAt: new Date(),
    })
    .where(and(eq(messages.id, placeholder.id), eq(messages.mediaType, PLACEHOLDER_TYPE)))
    .returning(repo.messageColumns);
  if (!row) return undefined;
  const previewChanged = await refreshPreview(tx, row);
  if (placeholder.read) {
    // Not through updateTicket: the message is not new, the ticket keeps its place in the lists.
    await tx
      .update(tickets)
      .set({ unreadMessages: sql`${tickets.unreadMessages} + 1` })
      .where(eq(tickets.id, row.ticketId));
  }
  return { messageId: row.id, ticketId: row.ticketId, ticketChanged: previewChanged || placeholder.read };
}
