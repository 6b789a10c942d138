import { ACK_FAILED, OUTBOX_NOTICES } from "@zapdesk/core";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { SentMessage } from "../channels/channel.js";
import type { Db } from "../db/client.js";
import { messages, outbox } from "../db/schema.js";
import type { Clock } from "../lib/clock.js";
import { isUniqueViolation } from "../lib/pg-errors.js";
import { withoutNul } from "../lib/pg-safe.js";
import { outboundIntent } from "../modules/messages/outbound.js";

/**
 * A claim's lock. Longer than any send may take (the worker gives up waiting on a send well before,
 * see SEND_GUARD_MS), so a claim never lapses while its send is still under way; a dead process's
 * claims are released earlier, when its connection is taken over.
 */
export const LOCK_MS = 15 * 60_000;
/** How many waiting rows one claim looks at to fill the room each connection has. */
const SCAN_FACTOR = 4;

export interface Claimed {
  message_id: number;
  attempts: number;
  /** Held by a restriction last time: looked at again. */
  held: boolean;
  whatsapp_id: number | null;
}

/** Notices that say where an unsent or unconfirmed message stands; a real outcome replaces them. */
const NOTICE_CODES = [OUTBOX_NOTICES.held, OUTBOX_NOTICES.outcomeUnknown];
const clearedNotice = {
  errorCode: sql`case when ${messages.errorCode} in (${sql.join(
    NOTICE_CODES.map((c) => sql`${c}`),
    sql`, `,
  )}) then null else ${messages.errorCode} end`,
  errorTitle: sql`case when ${messages.errorCode} in (${sql.join(
    NOTICE_CODES.map((c) => sql`${c}`),
    sql`, `,
  )}) then null else ${messages.errorTitle} end`,
};

/**
 * The outbox table's side of the worker: claims, reschedules and outcomes. Times follow the clock,
 * never behind the wall clock: rows are stamped with the wall clock when stored, and a clock that
 * tests move forward (past a backoff or a lock) must not leave fresh rows in its future.
 */
export function createOutboxStore(db: Db, clock: Clock) {
  const at = (offsetMs = 0) => new Date(Math.max(clock.now().getTime(), Date.now()) + offsetMs);
  const sqlAt = (offsetMs = 0) => sql`${at(offsetMs).toISOString()}::timestamptz`;

  /** Sent: the full message WhatsApp got is kept (for resend requests) and the ack never moves back. */
  async function recordSent(messageId: number, raw: unknown, sent: SentMessage) {
    await db.transaction(async (tx) => {
      await tx
        .update(messages)
        .set({
          wid: sent.wid,
          raw: withoutNul(sent.raw === undefined ? raw : { ...(sent.raw as object), outbound: outboundIntent(raw) }),
          // A refusal that overtook this write (a fast NACK) stands.
          ack: sql`case when ${messages.ack} = ${ACK_FAILED} then ${messages.ack} else greatest(${messages.ack}, ${sent.ack ?? 0}) end`,
          ...clearedNotice,
          updatedAt: new Date(),
        })
        .where(eq(messages.id, messageId));
      await tx.delete(outbox).where(eq(outbox.messageId, messageId));
    });
  }

  return {
    now: () => at(),

    /**
     * The first waiting message of each chat (ticket and connection), so that a chat's messages leave
     * in order and one that keeps failing holds back only its own chat; a held message does not hold
     * back the later ones (an agent's answer goes past a held automatic message). At most `room`
     * rows, and for each connection at most the room it has (`rooms`: only connections with a live
     * session here and room left; the others' messages wait, untouched).
     */
    async claim(rooms: Map<number, number>, room: number): Promise<Claimed[]> {
      const ids = [...rooms.keys()];
      if (ids.length === 0 || room <= 0) return [];
      const now = sqlAt();
      const roomOf = sql`case ranked.whatsapp_id ${sql.join(
        ids.map((id) => sql`when ${id}::int then ${rooms.get(id) ?? 0}::int`),
        sql` `,
      )} else ${room}::int end`;
      const result = (await db.execute(sql`
        update ${outbox} o set locked_until = ${sqlAt(LOCK_MS)}, attempts = o.attempts + 1
        from ${messages} m
        where m.id = o.message_id and o.message_id in (
          select ranked.message_id from (
            select c.message_id, c.run_at, c.whatsapp_id,
              row_number() over (partition by c.whatsapp_id order by c.run_at, c.message_id) as n
            from (
              select o2.message_id, o2.run_at, m2.whatsapp_id
              from ${outbox} o2 join ${messages} m2 on m2.id = o2.message_id
              where o2.run_at <= ${now} and (o2.locked_until is null or o2.locked_until < ${now})
                and (m2.whatsapp_id is null or m2.whatsapp_id in (${sql.join(
                  ids.map((id) => sql`${id}`),
                  sql`, `,
                )}))
                and not exists (
                  select 1 from ${outbox} p join ${messages} pm on pm.id = p.message_id
                  where pm.ticket_id = m2.ticket_id and pm.whatsapp_id is not distinct from m2.whatsapp_id
                    and p.message_id < o2.message_id and (not p.held or o2.held)
                )
              order by o2.run_at, o2.message_id
              limit ${room * SCAN_FACTOR}::int
              for update of o2 skip locked
            ) c
          ) ranked
          where ranked.n <= ${roomOf}
          order by ranked.run_at, ranked.message_id
          limit ${room}::int
        )
        returning o.message_id, o.attempts, o.held, m.whatsapp_id`)) as unknown as { rows: Claimed[] };
      return result.rows
        .map((r) => ({
          message_id: Number(r.message_id),
          attempts: Number(r.attempts),
          held: r.held === true,
          whatsapp_id: r.whatsapp_id === null ? null : Number(r.whatsapp_id),
        }))
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

    /**
     * Held by a restriction: looked at again after `recheckMs`, the attempt given back, the reason
     * on the message for the agent. Returns whether the message's notice changed (to publish it).
     */
    async hold(messageId: number, recheckMs: number, title: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx
          .update(outbox)
          .set({ held: true, lockedUntil: null, runAt: at(recheckMs), attempts: sql`${outbox.attempts} - 1` })
          .where(eq(outbox.messageId, messageId));
        const changed = await tx
          .update(messages)
          .set({ errorCode: OUTBOX_NOTICES.held, errorTitle: title.slice(0, 500), updatedAt: new Date() })
          .where(
            and(
              eq(messages.id, messageId),
              sql`(${messages.errorCode} is distinct from ${OUTBOX_NOTICES.held} or ${messages.errorTitle} is distinct from ${title.slice(0, 500)})`,
            ),
          )
          .returning({ id: messages.id });
        return changed.length > 0;
      });
    },

    /** No longer held (the restriction ended, or the customer wrote): it goes now, its notice gone. */
    async unhold(messageId: number) {
      await db.transaction(async (tx) => {
        await tx.update(outbox).set({ held: false }).where(eq(outbox.messageId, messageId));
        await tx
          .update(messages)
          .set({ ...clearedNotice, updatedAt: new Date() })
          .where(and(eq(messages.id, messageId), eq(messages.errorCode, OUTBOX_NOTICES.held)));
      });
    },

    /** The connection may open chats again: its held messages are looked at now. */
    async releaseHolds(whatsappId: number): Promise<number> {
      const released = await db
        .update(outbox)
        .set({ runAt: at() })
        .where(
          and(
            eq(outbox.held, true),
            inArray(outbox.messageId, db.select({ id: messages.id }).from(messages).where(eq(messages.whatsappId, whatsappId))),
          ),
        )
        .returning({ id: outbox.messageId });
      return released.length;
    },

    recordSent,

    /**
     * The send's answer never came: ack stays 0, the reason is shown, the row leaves the outbox (it
     * is never sent again by itself, and the chat's later messages go). A status report for `wid`
     * settles it later; the agent may send it again by hand.
     */
    async recordUnknown(messageId: number, outcome: { wid?: string; title: string }) {
      const write = (wid: string | undefined) =>
        db.transaction(async (tx) => {
          await tx
            .update(messages)
            .set({
              ...(wid ? { wid } : {}),
              errorCode: sql`case when ${messages.ack} = 0 then ${OUTBOX_NOTICES.outcomeUnknown} else ${messages.errorCode} end`,
              errorTitle: sql`case when ${messages.ack} = 0 then ${outcome.title.slice(0, 500)} else ${messages.errorTitle} end`,
              updatedAt: new Date(),
            })
            .where(eq(messages.id, messageId));
          await tx.delete(outbox).where(eq(outbox.messageId, messageId));
        });
      // A wid another row of the connection already has cannot be this message's: kept without it.
      await write(outcome.wid).catch((error) =>
        outcome.wid && isUniqueViolation(error) ? write(undefined) : Promise.reject(error),
      );
    },

    /**
     * A send the worker stopped waiting for answered after all: recorded as sent, unless the agent
     * sent the message again meanwhile (its wid changed) or a status already settled it.
     */
    async settleLate(messageId: number, expectedWid: string | undefined, raw: unknown, sent: SentMessage): Promise<boolean> {
      const [row] = await db
        .select({ wid: messages.wid, errorCode: messages.errorCode })
        .from(messages)
        .where(eq(messages.id, messageId));
      if (!row || row.errorCode !== OUTBOX_NOTICES.outcomeUnknown || (expectedWid && row.wid !== expectedWid)) return false;
      const [queued] = await db.select({ id: outbox.messageId }).from(outbox).where(eq(outbox.messageId, messageId));
      if (queued) return false;
      await recordSent(messageId, raw, sent);
      return true;
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

export type OutboxStore = ReturnType<typeof createOutboxStore>;
