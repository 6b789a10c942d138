import { ACK_FAILED } from "@zapdesk/core";
import { eq, sql } from "drizzle-orm";
import type { SentMessage } from "../channels/channel.js";
import type { Db } from "../db/client.js";
import { messages, outbox } from "../db/schema.js";
import type { Clock } from "../lib/clock.js";
import { withoutNul } from "../lib/pg-safe.js";
import { outboundIntent } from "../modules/messages/outbound.js";

const BATCH = 20;
/** A claim's lock; a dead process's claims are released earlier, when its connection is taken over. */
const LOCK_MS = 60_000;

export interface Claimed {
  message_id: number;
  attempts: number;
}

/**
 * The outbox table's side of the worker: claims, reschedules and outcomes. Times follow the clock,
 * never behind the wall clock: rows are stamped with the wall clock when stored, and a clock that
 * tests move forward (past a backoff or a lock) must not leave fresh rows in its future.
 */
export function createOutboxStore(db: Db, clock: Clock) {
  const at = (offsetMs = 0) => new Date(Math.max(clock.now().getTime(), Date.now()) + offsetMs);
  const sqlAt = (offsetMs = 0) => sql`${at(offsetMs).toISOString()}::timestamptz`;

  return {
    batch: BATCH,

    /**
     * The first waiting message of each chat (ticket and connection), so that a chat's messages leave
     * in order and one that keeps failing holds back only its own chat. Messages of connections
     * without a live session here wait, untouched, until one connects.
     */
    async claim(connected: number[]): Promise<Claimed[]> {
      if (connected.length === 0) return [];
      const now = sqlAt();
      const result = (await db.execute(sql`
        update ${outbox} set locked_until = ${sqlAt(LOCK_MS)}, attempts = attempts + 1
        where message_id in (
          select o.message_id from ${outbox} o join ${messages} m on m.id = o.message_id
          where o.run_at <= ${now} and (o.locked_until is null or o.locked_until < ${now})
            and (m.whatsapp_id is null or m.whatsapp_id in (${sql.join(
              connected.map((id) => sql`${id}`),
              sql`, `,
            )}))
            and not exists (
              select 1 from ${outbox} p join ${messages} pm on pm.id = p.message_id
              where pm.ticket_id = m.ticket_id and pm.whatsapp_id is not distinct from m.whatsapp_id
                and p.message_id < o.message_id
            )
          order by o.run_at, o.message_id
          limit ${BATCH}
          for update of o skip locked
        )
        returning message_id, attempts`)) as unknown as { rows: Claimed[] };
      return result.rows
        .map((r) => ({ message_id: Number(r.message_id), attempts: Number(r.attempts) }))
        .sort((a, b) => a.message_id - b.message_id);
    },

    /** Try again later; `counted: false` (too early for the pacing, a lost session) gives the attempt back. */
    async postpone(messageId: number, delayMs: number, options: { error?: string; counted: boolean }) {
      await db
        .update(outbox)
        .set({
          lockedUntil: null,
          runAt: at(delayMs),
          ...(options.counted ? {} : { attempts: sql`${outbox.attempts} - 1` }),
          ...(options.error === undefined ? {} : { lastError: options.error.slice(0, 500) }),
        })
        .where(eq(outbox.messageId, messageId));
    },

    /** Sent: the full message WhatsApp got is kept (for resend requests) and the ack never moves back. */
    async recordSent(messageId: number, raw: unknown, sent: SentMessage) {
      await db.transaction(async (tx) => {
        await tx
          .update(messages)
          .set({
            wid: sent.wid,
            raw: withoutNul(sent.raw === undefined ? raw : { ...(sent.raw as object), outbound: outboundIntent(raw) }),
            // A refusal that overtook this write (a fast NACK) stands.
            ack: sql`case when ${messages.ack} = ${ACK_FAILED} then ${messages.ack} else greatest(${messages.ack}, ${sent.ack ?? 0}) end`,
            updatedAt: new Date(),
          })
          .where(eq(messages.id, messageId));
        await tx.delete(outbox).where(eq(outbox.messageId, messageId));
      });
    },

    /** Failed for good (ack -1) with the reason the chat shows next to its retry button. */
    async recordFailed(messageId: number, failure: { code: string; title: string }) {
      await db.transaction(async (tx) => {
        await tx
          .update(messages)
          .set({ ack: ACK_FAILED, errorCode: failure.code, errorTitle: failure.title.slice(0, 500), updatedAt: new Date() })
          .where(eq(messages.id, messageId));
        await tx.delete(outbox).where(eq(outbox.messageId, messageId));
      });
    },

    async discard(messageId: number) {
      await db.delete(outbox).where(eq(outbox.messageId, messageId));
    },

    /** Claims on the connection's messages are orphaned (its previous owner is gone): they may go at once. */
    async releaseClaims(whatsappId: number) {
      await db.execute(sql`
        update ${outbox} set locked_until = null
        where locked_until is not null
          and message_id in (select id from ${messages} where whatsapp_id = ${whatsappId})`);
    },
  };
}
