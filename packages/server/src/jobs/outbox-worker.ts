import { ACK_FAILED } from "@zapdesk/core";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type ChannelSession, type OutboundMessage, SendFailure, type SentMessage } from "../channels/channel.js";
import type { Db } from "../db/client.js";
import { contacts, messages, outbox, tickets, whatsapps } from "../db/schema.js";
import { withoutNul } from "../lib/pg-safe.js";
import { type MediaStorage, readStored } from "../media/storage.js";
import { outboundIntent } from "../modules/messages/outbound.js";

const BATCH = 20;
const LEASE_SECONDS = 60;
const MAX_BACKOFF_MS = 10 * 60 * 1000;

export interface OutboxWorkerDeps {
  db: Db;
  storage: MediaStorage;
  /** The live session of a connection; throws when it is not connected. */
  session(whatsappId: number): ChannelSession;
  /** Connections with a live session in this process: only their messages are claimed here. */
  connectedIds(): Promise<number[]>;
  logger: FastifyBaseLogger;
  pollMs?: number;
  /** Called after a message left or was refused for good, with its id (to publish the new state). */
  onSent?(messageId: number): void;
  /** Randomness of the pacing jitter (tests pin it). */
  random?: () => number;
}

interface Claimed {
  message_id: number;
  attempts: number;
}

/**
 * Send pacing per connection (against bans on QR sessions): after a send, the connection's next
 * message waits a minimum gap plus a random extra. Rows that come too early are rescheduled, so
 * the pacing of one connection never holds back another's messages.
 */
function createPacer(random: () => number) {
  const nextAt = new Map<number, number>();
  return {
    /** How long this connection must still wait before its next send. */
    wait: (whatsappId: number) => Math.max(0, (nextAt.get(whatsappId) ?? 0) - Date.now()),
    sent(whatsappId: number, pacing: { minGapMs: number; jitterMs: number }) {
      const gap = pacing.minGapMs + Math.floor(random() * pacing.jitterMs);
      if (gap > 0) nextAt.set(whatsappId, Date.now() + gap);
    },
  };
}

/**
 * Sends what `enqueueOutbound` stored. Rows are claimed with SKIP LOCKED and a
 * lease, so several processes share the work and a crash hands rows to the next
 * run; a failure is retried with capped exponential backoff, a permanent refusal
 * fails the message with its reason.
 */
export function createOutboxWorker(deps: OutboxWorkerDeps) {
  const { db, logger } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const pacer = createPacer(deps.random ?? Math.random);
  let timer: NodeJS.Timeout | undefined;
  let wake: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  async function claim(): Promise<Claimed[]> {
    const connected = await deps.connectedIds();
    if (connected.length === 0) return [];
    // Messages of connections without a live session wait here, untouched, until one connects.
    const result = (await db.execute(sql`
      update ${outbox} set locked_until = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = attempts + 1
      where message_id in (
        select o.message_id from ${outbox} o join ${messages} m on m.id = o.message_id
        where o.run_at <= now() and (o.locked_until is null or o.locked_until < now())
          and (m.whatsapp_id is null or m.whatsapp_id in (${sql.join(
            connected.map((id) => sql`${id}`),
            sql`, `,
          )}))
        order by o.run_at, o.message_id
        limit ${BATCH}
        for update of o skip locked
      )
      returning message_id, attempts`)) as unknown as { rows: Claimed[] };
    return result.rows
      .map((r) => ({ message_id: Number(r.message_id), attempts: Number(r.attempts) }))
      .sort((a, b) => a.message_id - b.message_id);
  }

  async function buildOutbound(messageId: number) {
    const [row] = await db
      .select({
        message: messages,
        number: contacts.number,
        isGroup: tickets.isGroup,
        pacing: { minGapMs: whatsapps.sendMinGapMs, jitterMs: whatsapps.sendJitterMs },
      })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .leftJoin(whatsapps, eq(whatsapps.id, messages.whatsappId))
      .where(eq(messages.id, messageId));
    if (!row) return undefined;
    const { message } = row;
    const intent = outboundIntent(message.raw);
    const outbound: OutboundMessage = { id: message.wid ?? undefined, to: row.number, isGroup: row.isGroup, body: message.body };
    if (intent.template) outbound.template = intent.template;
    if (message.mediaPath) {
      outbound.media = {
        data: await readStored(deps.storage, message.mediaPath),
        mimetype: message.mediaMime ?? "application/octet-stream",
        filename: message.mediaName ?? "file",
        asVoice: intent.asVoice === true,
      };
    }
    if (message.quotedMsgId) {
      const [quoted] = await db.select().from(messages).where(eq(messages.id, message.quotedMsgId));
      if (quoted?.wid)
        outbound.quoted = { wid: quoted.wid, fromMe: quoted.fromMe, body: quoted.body, raw: quoted.raw ?? undefined };
    }
    return { message, outbound, pacing: row.pacing ?? { minGapMs: 0, jitterMs: 0 } };
  }

  /** Try again later; a row that came too early for its connection's pacing does not count as an attempt. */
  async function postpone(item: Claimed, delayMs: number, error?: string) {
    await db
      .update(outbox)
      .set({
        lockedUntil: null,
        runAt: new Date(Date.now() + delayMs),
        ...(error === undefined ? { attempts: sql`${outbox.attempts} - 1` } : { lastError: error.slice(0, 500) }),
      })
      .where(eq(outbox.messageId, item.message_id));
    if (error === undefined) scheduleWake(delayMs);
  }

  function scheduleWake(delayMs: number) {
    if (stopped || wake) return;
    wake = setTimeout(() => {
      wake = undefined;
      run();
    }, delayMs + 5);
    wake.unref?.();
  }

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
          updatedAt: new Date(),
        })
        .where(eq(messages.id, messageId));
      await tx.delete(outbox).where(eq(outbox.messageId, messageId));
    });
  }

  async function recordRefused(messageId: number, failure: SendFailure) {
    await db.transaction(async (tx) => {
      await tx
        .update(messages)
        .set({ ack: ACK_FAILED, errorCode: failure.code, errorTitle: failure.title.slice(0, 500), updatedAt: new Date() })
        .where(eq(messages.id, messageId));
      await tx.delete(outbox).where(eq(outbox.messageId, messageId));
    });
  }

  async function deliver(item: Claimed) {
    const built = await buildOutbound(item.message_id);
    if (!built || built.message.whatsappId === null || built.message.isDeleted) {
      // Connection or message gone: nothing can be sent any more.
      await db.delete(outbox).where(eq(outbox.messageId, item.message_id));
      return;
    }
    const whatsappId = built.message.whatsappId;
    const wait = pacer.wait(whatsappId);
    if (wait > 0) {
      await postpone(item, wait);
      return;
    }
    try {
      const sent = await deps.session(whatsappId).send(built.outbound);
      pacer.sent(whatsappId, built.pacing);
      await recordSent(item.message_id, built.message.raw, sent);
      deps.onSent?.(item.message_id);
    } catch (error) {
      if (error instanceof SendFailure && error.permanent) {
        logger.warn({ messageId: item.message_id, code: error.code }, "outbound message refused by WhatsApp");
        await recordRefused(item.message_id, error);
        deps.onSent?.(item.message_id);
        return;
      }
      const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(item.attempts, 20));
      const delay = Math.max(backoff, error instanceof SendFailure ? (error.retryAfterMs ?? 0) : 0);
      logger.warn({ err: error, messageId: item.message_id, attempts: item.attempts }, "outbound message not sent, will retry");
      await postpone(item, delay, String((error as Error)?.message ?? error));
    }
  }

  async function tick() {
    do {
      again = false;
      const claimed = await claim();
      for (const item of claimed) await deliver(item);
      if (claimed.length === BATCH) again = true;
    } while (again && !stopped);
  }

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = tick()
      .catch((error) => logger.error({ err: error }, "outbox tick failed"))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    start() {
      stopped = false;
      timer = setInterval(run, pollMs);
      timer.unref();
      run();
    },
    /** Something was just enqueued: send it now rather than at the next poll. */
    notify: run,
    /** Wait for the current batch (tests, shutdown). */
    async drain() {
      run();
      while (running) await running;
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      clearTimeout(wake);
      wake = undefined;
      if (running) await running;
    },
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
