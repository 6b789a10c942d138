import type { FastifyBaseLogger } from "fastify";
import { type ChannelSession, SendFailure, SendOutcomeUnknown, type SentMessage } from "../channels/channel.js";
import type { Db } from "../db/client.js";
import { AppError } from "../lib/app-error.js";
import { type Clock, systemClock } from "../lib/clock.js";
import type { MediaStorage } from "../media/storage.js";
import { optOutSkipOf } from "../modules/consent/consent-outbox.js";
import {
  BuildFailure,
  type Built,
  buildOutbound,
  loadRow,
  MAX_ATTEMPTS,
  OUTBOX_FAILURES,
  type OutboxRow,
} from "./outbox-build.js";
import { holdOf } from "./outbox-hold.js";
import { createPacer } from "./outbox-pacer.js";
import { type Claimed, createOutboxStore, LOCK_MS } from "./outbox-store.js";

export { MAX_ATTEMPTS, OUTBOX_FAILURES } from "./outbox-build.js";

const MAX_BACKOFF_MS = 10 * 60 * 1000;
/**
 * How many sends one process has under way at once, and per connection. Chats are independent:
 * a send that hangs delays only its own chat. The per-connection bound keeps a connection whose
 * sends all hang (a socket gone silent) from taking every slot; the global one bounds the media
 * held in memory.
 */
export const MAX_IN_FLIGHT = 32;
export const MAX_IN_FLIGHT_PER_CONNECTION = 4;
/**
 * The longest the worker waits for a channel's send. Channels bound their own sends well below
 * it (QR: BAILEYS_SEND_TIMEOUT_MS); this is the last resort against one that never answers.
 * The request may have left, so it ends as an unknown outcome, never as a resend.
 */
export const SEND_GUARD_MS = 10 * 60_000;

/** What the agent reads on a message whose send was never answered. */
export const unknownOutcomeTitle = (reason: string) =>
  `No answer from WhatsApp (${reason}): the message may have arrived. It is not sent again by itself; its delivery report settles it, or send it again.`;

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
  /** Called after a message left, was refused for good, was held or ended unconfirmed (to publish its new state). */
  onSent?(messageId: number): void;
  /** Issue 18: the send's answer named the recipient by another number (SentMessage.canonicalTo). */
  onRecipient?(ticketId: number, canonicalTo: string): Promise<void>;
  /** Randomness of the pacing jitter (tests pin it). */
  random?: () => number;
  /** The last-resort wait for a send (tests shorten it). */
  sendGuardMs?: number;
}

/** The send did not settle within the guard. */
class GuardTimeout extends Error {}

function guarded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GuardTimeout(`no answer within ${Math.round(ms / 1000)} s`)), ms);
    timer.unref?.();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Sends what `enqueueOutbound` stored. Rows are claimed with SKIP LOCKED and a lock, so several
 * processes share the work; a process that takes a connection over releases its dead owner's
 * claims. Each chat's head message is delivered on its own, side by side with the other chats'
 * (bounded per connection and in all): whatever goes wrong building or sending it is retried with
 * capped exponential backoff and fails it after MAX_ATTEMPTS, a permanent refusal fails it at once
 * with WhatsApp's reason, a send whose answer never came is left unconfirmed (never resent), and
 * the other messages go on.
 */
export function createOutboxWorker(deps: OutboxWorkerDeps) {
  const { db, logger } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const guardMs = Math.min(deps.sendGuardMs ?? SEND_GUARD_MS, LOCK_MS - 60_000);
  const clock = deps.clock ?? systemClock;
  const pacer = createPacer(deps.random ?? Math.random);
  const store = createOutboxStore(db, clock);
  const inFlight = new Map<number, { whatsappId: number | null; job: Promise<void> }>();
  let timer: NodeJS.Timeout | undefined;
  let wake: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | undefined;
  let again = false;
  let stopped = true;

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

  /** The send never answered: left unconfirmed (a later status settles it), never resent. */
  async function unknownOutcome(item: Claimed, reason: string, wid: string | undefined) {
    logger.warn({ messageId: item.message_id, wid, reason }, "outbound message outcome unknown, not resent");
    await store.recordUnknown(item.message_id, { wid, title: unknownOutcomeTitle(reason) });
    deps.onSent?.(item.message_id);
  }

  /** The channel may still answer after the outcome was recorded unknown: a late success settles the message. */
  function settleWhenAnswered(item: Claimed, built: Built, late: Promise<SentMessage | undefined>) {
    late
      .then(async (sent) => {
        if (!sent) return;
        if (await store.settleLate(item.message_id, built.outbound.id, built.message.raw, sent)) deps.onSent?.(item.message_id);
      })
      .catch((error) => logger.debug({ err: error, messageId: item.message_id }, "could not settle a late send"));
  }

  async function send(built: Built, whatsappId: number) {
    const sending = deps.session(whatsappId).send(built.outbound);
    try {
      return await guarded(sending, guardMs);
    } catch (error) {
      if (!(error instanceof GuardTimeout)) throw error;
      throw new SendOutcomeUnknown(
        error.message,
        built.outbound.id,
        sending.catch(() => undefined),
      );
    }
  }

  async function deliver(item: Claimed) {
    let row: OutboxRow | undefined;
    try {
      row = await loadRow(db, item.message_id);
    } catch (error) {
      await retryOrFail(item, error);
      return;
    }
    if (!row || row.message.whatsappId === null || row.message.isDeleted || row.message.isNote) {
      // Connection or message gone (or a private note, which never goes out): nothing can be sent any more.
      await store.discard(item.message_id);
      return;
    }
    const whatsappId = row.message.whatsappId;
    // Issue 22 §3: an automatic message to a customer who opted out is skipped, with its reason.
    const skip = await optOutSkipOf(db, { message: row.message, contactId: row.contactId, isGroup: row.isGroup });
    if (skip) {
      await store.recordFailed(item.message_id, skip);
      deps.onSent?.(item.message_id);
      return;
    }
    // Decided before any file is read: a held message is looked at again every minute.
    const hold = await holdOf(db, {
      message: { ...row.message, whatsappId },
      isGroup: row.isGroup,
      contactId: row.contactId,
      restriction: row.restriction,
      now: store.now(),
    });
    if (hold) {
      if (await store.hold(item.message_id, hold.recheckMs, hold.title)) deps.onSent?.(item.message_id);
      scheduleWake(hold.recheckMs);
      return;
    }
    let built: Built;
    try {
      built = await buildOutbound(db, deps.storage, row);
    } catch (error) {
      await retryOrFail(item, error);
      return;
    }
    const wait = pacer.take(whatsappId, built.pacing);
    if (wait > 0) {
      await store.postpone(item.message_id, wait, { counted: false });
      scheduleWake(wait);
      return;
    }
    if (item.held) {
      await store.unhold(item.message_id);
      deps.onSent?.(item.message_id);
    }
    let sent: SentMessage;
    try {
      sent = await send(built, whatsappId);
    } catch (error) {
      if (error instanceof SendOutcomeUnknown) {
        await unknownOutcome(item, error.reason, error.wid ?? built.outbound.id);
        if (error.late) settleWhenAnswered(item, built, error.late);
      } else if (error instanceof SendFailure && error.permanent) {
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
    pacer.finished(whatsappId, built.pacing);
    await store.recordSent(item.message_id, built.message.raw, sent);
    if (sent.canonicalTo && deps.onRecipient) {
      await deps
        .onRecipient(built.message.ticketId, sent.canonicalTo)
        .catch((error) => logger.warn({ err: error }, "recipient not updated"));
    }
    deps.onSent?.(item.message_id);
  }

  /** How much room each live connection has left here. */
  function roomsOf(connected: number[]): Map<number, number> {
    const busy = new Map<number, number>();
    for (const { whatsappId } of inFlight.values()) {
      if (whatsappId !== null) busy.set(whatsappId, (busy.get(whatsappId) ?? 0) + 1);
    }
    const rooms = new Map<number, number>();
    for (const id of connected) {
      const room = MAX_IN_FLIGHT_PER_CONNECTION - (busy.get(id) ?? 0);
      if (room > 0) rooms.set(id, room);
    }
    return rooms;
  }

  function begin(item: Claimed) {
    // One message's trouble (even a database error recording it) never holds back the others.
    const job = deliver(item)
      .catch((error) => logger.error({ err: error, messageId: item.message_id }, "outbox delivery failed"))
      .finally(() => {
        inFlight.delete(item.message_id);
        // A finished message lets the next one of its chat go, and frees a slot.
        run();
      });
    inFlight.set(item.message_id, { whatsappId: item.whatsapp_id, job });
  }

  async function pump() {
    do {
      again = false;
      const room = MAX_IN_FLIGHT - inFlight.size;
      if (room <= 0) return;
      const claimed = await store.claim(roomsOf(await deps.connectedIds()), room);
      for (const item of claimed) begin(item);
      if (claimed.length > 0) again = true;
    } while (again && !stopped);
  }

  function run() {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = pump()
      .catch((error) => logger.error({ err: error }, "outbox claim failed"))
      .finally(() => {
        pumping = undefined;
        if (again) run();
      });
  }

  /** Until nothing is being claimed or delivered. */
  async function settled() {
    while (pumping || inFlight.size > 0) {
      await pumping;
      await Promise.all([...inFlight.values()].map((f) => f.job));
    }
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
    /** The connection may open chats again: its held messages go now (and the rest of its queue). */
    async releaseHolds(whatsappId: number) {
      if ((await store.releaseHolds(whatsappId)) > 0) run();
    },
    /** Wait until everything due now was delivered, including what each delivery let go (tests, shutdown). */
    async drain() {
      run();
      await settled();
    },
    /** Claim nothing more; wait for the deliveries under way (each bounded by its channel's timeout and the guard). */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      clearTimeout(wake);
      wake = undefined;
      await settled();
    },
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
