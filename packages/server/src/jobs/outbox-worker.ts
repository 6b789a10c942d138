import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type ChannelSession, type OutboundMessage, SendFailure, type SentMessage } from "../channels/channel.js";
import type { Db } from "../db/client.js";
import { contacts, messages, tickets, whatsapps } from "../db/schema.js";
import { AppError } from "../lib/app-error.js";
import { type Clock, systemClock } from "../lib/clock.js";
import { type MediaStorage, readStored } from "../media/storage.js";
import { outboundIntent } from "../modules/messages/outbound.js";
import { type Claimed, createOutboxStore } from "./outbox-store.js";

const MAX_BACKOFF_MS = 10 * 60 * 1000;
/**
 * A message that cannot be built or sent is tried this many times, 2 s, 4 s, 8 s, 16 s and 32 s
 * apart (about a minute in all), then failed with ack -1 and a reason: the agent sends it again
 * with the chat's retry button. Meanwhile the later messages of the same chat wait, to keep order.
 */
export const MAX_ATTEMPTS = 6;

/** Why the outbox gave up on a message (the `error` of a failed message, next to WhatsApp's own codes). */
export const OUTBOX_FAILURES = {
  MEDIA_MISSING: "The attached file is missing from the media storage",
  SEND_FAILED: `Not sent after ${MAX_ATTEMPTS} attempts`,
} as const;

/** A message that cannot be built (its media file is gone or unreadable). */
class BuildFailure extends Error {
  constructor(
    readonly code: keyof typeof OUTBOX_FAILURES,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

export interface OutboxWorkerDeps {
  db: Db;
  storage: Pick<MediaStorage, "open">;
  clock?: Clock;
  /** The live session of a connection; throws when it is not connected. */
  session(whatsappId: number): ChannelSession;
  /** Connections with a live session in this process: only their messages are claimed here. */
  connectedIds(): Promise<number[]>;
  logger: FastifyBaseLogger;
  pollMs?: number;
  /** Called after a message left or was refused for good, with its id (to publish the new state). */
  onSent?(messageId: number): void;
  /** Issue 18: the send's answer named the recipient by another number (SentMessage.canonicalTo). */
  onRecipient?(ticketId: number, canonicalTo: string): Promise<void>;
  /** Randomness of the pacing jitter (tests pin it). */
  random?: () => number;
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
 * Sends what `enqueueOutbound` stored. Rows are claimed with SKIP LOCKED and a lock, so several
 * processes share the work; a process that takes a connection over releases its dead owner's
 * claims. Each message is handled on its own: whatever goes wrong building or sending it is
 * retried with capped exponential backoff and fails it after MAX_ATTEMPTS, a permanent refusal
 * fails it at once with WhatsApp's reason, and the other messages go on.
 */
export function createOutboxWorker(deps: OutboxWorkerDeps) {
  const { db, logger } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const pacer = createPacer(deps.random ?? Math.random);
  const store = createOutboxStore(db, deps.clock ?? systemClock);
  let timer: NodeJS.Timeout | undefined;
  let wake: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  function readMedia(path: string): Promise<Buffer> {
    return readStored(deps.storage, path).catch((error) => {
      throw new BuildFailure("MEDIA_MISSING", String((error as Error)?.message ?? error));
    });
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
        data: await readMedia(message.mediaPath),
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

  function scheduleWake(delayMs: number) {
    if (stopped || wake) return;
    wake = setTimeout(() => {
      wake = undefined;
      run();
    }, delayMs + 5);
    wake.unref?.();
  }

  /** Retry with capped exponential backoff; the last attempt fails the message with its reason. */
  async function retryOrFail(item: Claimed, error: unknown) {
    const reason = String((error as Error)?.message ?? error);
    if (item.attempts >= MAX_ATTEMPTS) {
      const code = error instanceof BuildFailure ? error.code : "SEND_FAILED";
      logger.warn({ messageId: item.message_id, attempts: item.attempts, reason }, "outbound message failed for good");
      await store.recordFailed(item.message_id, { code, title: OUTBOX_FAILURES[code] });
      deps.onSent?.(item.message_id);
      return;
    }
    const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(item.attempts, 20));
    const delay = Math.max(backoff, error instanceof SendFailure ? (error.retryAfterMs ?? 0) : 0);
    logger.warn({ err: error, messageId: item.message_id, attempts: item.attempts }, "outbound message not sent, will retry");
    await store.postpone(item.message_id, delay, { error: reason, counted: true });
  }

  async function deliver(item: Claimed) {
    let built: Awaited<ReturnType<typeof buildOutbound>>;
    try {
      built = await buildOutbound(item.message_id);
    } catch (error) {
      await retryOrFail(item, error);
      return;
    }
    if (!built || built.message.whatsappId === null || built.message.isDeleted || built.message.isNote) {
      // Connection or message gone (or a private note, which never goes out): nothing can be sent any more.
      await store.discard(item.message_id);
      return;
    }
    const whatsappId = built.message.whatsappId;
    const wait = pacer.wait(whatsappId);
    if (wait > 0) {
      await store.postpone(item.message_id, wait, { counted: false });
      scheduleWake(wait);
      return;
    }
    let sent: SentMessage;
    try {
      sent = await deps.session(whatsappId).send(built.outbound);
    } catch (error) {
      if (error instanceof SendFailure && error.permanent) {
        logger.warn({ messageId: item.message_id, code: error.code }, "outbound message refused by WhatsApp");
        await store.recordFailed(item.message_id, error);
        deps.onSent?.(item.message_id);
      } else if (error instanceof AppError && error.code === "ERR_WAPP_NOT_INITIALIZED") {
        // The session went away after the claim: the message is not at fault, it waits for a live one.
        await store.postpone(item.message_id, 1000, { error: error.message, counted: false });
      } else {
        await retryOrFail(item, error);
      }
      return;
    }
    pacer.sent(whatsappId, built.pacing);
    await store.recordSent(item.message_id, built.message.raw, sent);
    if (sent.canonicalTo && deps.onRecipient) {
      await deps
        .onRecipient(built.message.ticketId, sent.canonicalTo)
        .catch((error) => logger.warn({ err: error }, "recipient not updated"));
    }
    deps.onSent?.(item.message_id);
  }

  async function tick() {
    do {
      again = false;
      const claimed = await store.claim(await deps.connectedIds());
      for (const item of claimed) {
        // One message's trouble (even a database error recording it) never holds back the others.
        await deliver(item).catch((error) => logger.error({ err: error, messageId: item.message_id }, "outbox delivery failed"));
      }
      // A sent message lets the next one of its chat go.
      if (claimed.length > 0) again = true;
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
    /**
     * This process just took the connection over (boot, or its owner died): whatever the previous
     * owner had claimed is orphaned and may go at once, instead of when its lock runs out.
     */
    releaseClaims: store.releaseClaims,
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
