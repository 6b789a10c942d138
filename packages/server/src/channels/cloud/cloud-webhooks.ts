import { createHash } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { createKeyedSerial } from "../../lib/keyed-serial.js";
import type { ChannelStore } from "../channel-store.js";
import type { InboundSink } from "../session-types.js";
import { type CloudDeps, graphClientFor, loadCloudAccount } from "./cloud-account.js";
import { translateCall } from "./cloud-calls.js";
import { addressChangeOf, identitiesOf } from "./cloud-identity.js";
import { downloadMedia } from "./cloud-media.js";
import {
  accountErrorsOf,
  type CloudValue,
  changesOf,
  translateMessage,
  translateStatus,
  type WebhookPayload,
  withChosenWid,
} from "./cloud-translate.js";

export const WEBHOOK_KIND = "cloud.webhook";

/** A status can overtake the write of the wamid it is about (the send's answer): wait this long for it. */
const UNKNOWN_STATUS_GRACE_MS = 2 * 60 * 1000;
const SWEEP = { olderThanMs: 10_000, leaseMs: 60_000, limit: 50 };

export interface CloudWebhookDeps {
  /** The inbound log, the Cloud API settings and the stored messages' ids. */
  store: ChannelStore;
  /** The inbound pipeline. */
  sink: InboundSink;
  cloud: CloudDeps;
  mediaMaxBytes: number;
  logger: FastifyBaseLogger;
  onActivity?(whatsappId: number): void;
  /** Meta reported an error of the app or account (`value.errors`): shown to admins on the connection. */
  onAccountError?(whatsappId: number, error: string): Promise<void>;
  sweepIntervalMs?: number;
}

/** Waits for every pending store (none is left running), then fails with the first failure. */
async function allStored(storing: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(storing.splice(0))).find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** Thrown to leave an event pending for a later attempt. */
class NotYet extends Error {}

/**
 * Meta's webhook deliveries, made durable before they are answered and processed in any process:
 * record (one row per distinct body, so an exact redelivery is a no-op), process (translate, then
 * the inbound pipeline, which is idempotent on the wamid), and a sweeper that claims rows left
 * pending by a crash or a failed attempt.
 */
export function createCloudWebhooks(deps: CloudWebhookDeps) {
  const { store, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;

  // One connection's events run one after another here, so its acks apply in arrival order.
  const perConnection = createKeyedSerial<number>();
  // And the deliveries of one webhook are processed in the order they were handed over, each from its
  // start: a delivery's own lookups (its account, another number's connection) come before it joins
  // `perConnection`, so two processed side by side could store a customer's second message first.
  const perWebhook = createKeyedSerial<number>();

  /** A customer's calls: each a line in their ticket, through the pipeline like a QR call. */
  async function applyCalls(whatsappId: number, value: CloudValue) {
    for (const call of Array.isArray(value.calls) ? value.calls : []) {
      const inbound = translateCall(call);
      if (inbound) await deps.sink.onCall(whatsappId, inbound);
      else logger.info({ whatsappId, callId: call?.id, event: call?.event }, "cloud call event not stored");
    }
  }

  /**
   * Whether a status names a message stored here: by its wamid, or (the send's answer was lost)
   * by the id Zapdesk chose for the row, which Meta echoes as biz_opaque_callback_data.
   */
  async function knows(whatsappId: number, update: { wid: string; chosenWid?: string }) {
    if (await store.message(whatsappId, update.wid)) return true;
    if (!update.chosenWid) return false;
    const chosen = await store.message(whatsappId, update.chosenWid);
    return !!chosen?.fromMe;
  }

  async function applyChange(whatsappId: number, field: string, value: CloudValue) {
    if (field === "calls") return applyCalls(whatsappId, value);
    for (const error of accountErrorsOf(value)) {
      logger.warn({ whatsappId, error }, "Meta reported an account error");
      await deps.onAccountError?.(whatsappId, error);
    }
    const account = await loadCloudAccount(store, whatsappId, deps.cloud.openSecret);
    if (!account) return;
    const client = graphClientFor(deps.cloud, account);
    const download = (mediaId: string) => downloadMedia(client, mediaId, deps.mediaMaxBytes);
    const contacts = Array.isArray(value.contacts) ? value.contacts : [];
    // Who the customers are (a number and its BSUID), before anything of theirs is stored: a later
    // payload naming one by BSUID alone then finds the number's contact. A repeat costs nothing.
    for (const mapping of identitiesOf(contacts)) await deps.sink.onIdentity(whatsappId, mapping);
    // Consecutive messages are handed over together (the pipeline writes them in one batch, in order);
    // an update waits for the messages before it.
    const storing: Promise<void>[] = [];
    for (const message of Array.isArray(value.messages) ? value.messages : []) {
      // A customer who changed number or BSUID: their contact moves before anything else of theirs is stored.
      const change = addressChangeOf(message);
      if (change) {
        await allStored(storing);
        await deps.sink.onIdentity(whatsappId, change);
      }
      const translated = translateMessage(message, contacts, download);
      if ("message" in translated) {
        storing.push(deps.sink.onMessage(whatsappId, translated.message));
        continue;
      }
      await allStored(storing);
      if ("update" in translated) await deps.sink.onUpdate(whatsappId, translated.update);
      else logger.info({ whatsappId, wid: message?.id, why: translated.skipped }, "cloud message not stored");
    }
    await allStored(storing);
    let waiting = false;
    for (const status of Array.isArray(value.statuses) ? value.statuses : []) {
      const translated = translateStatus(status);
      if (!translated) continue;
      const update = withChosenWid(translated, status);
      if (!(await knows(whatsappId, update))) {
        const age = Date.now() - Number(status.timestamp ?? 0) * 1000;
        if (age < UNKNOWN_STATUS_GRACE_MS) waiting = true;
        continue;
      }
      await deps.sink.onUpdate(whatsappId, update);
    }
    if (waiting) throw new NotYet("a status arrived before its message was stored; trying again");
  }

  /** Process one logged delivery after those handed over before it on the same webhook. */
  function process(event: { id: number; whatsappId: number; payload: unknown }): Promise<void> {
    return perWebhook.run(event.whatsappId, () => processNow(event));
  }

  /** Process one logged delivery; its row ends done, or pending with an attempt counted. */
  async function processNow(event: { id: number; whatsappId: number; payload: unknown }): Promise<void> {
    const log = store.inbox(event.whatsappId);
    try {
      const own = await loadCloudAccount(store, event.whatsappId, deps.cloud.openSecret).catch(() => undefined);
      for (const change of changesOf(event.payload as WebhookPayload)) {
        // One app's webhook carries the events of all its numbers: each goes to its own connection.
        const target =
          own && change.phoneNumberId === own.phoneNumberId
            ? event.whatsappId
            : await store.cloudConnectionOf(change.phoneNumberId);
        if (target === undefined) continue;
        deps.onActivity?.(target);
        await perConnection.run(target, () => applyChange(target, change.field, change.value));
      }
      await log.done(event.id);
    } catch (error) {
      if (!(error instanceof NotYet)) logger.warn({ err: error, eventId: event.id }, "cloud webhook processing failed");
      await log.failed(event.id, error);
    }
  }

  async function sweep() {
    const claimed = await store.claimStale(WEBHOOK_KIND, SWEEP);
    for (const event of claimed) await process(event);
  }

  return {
    /** Store a verified delivery; undefined when the same bytes were already stored. */
    async record(whatsappId: number, raw: Buffer, payload: unknown): Promise<number | undefined> {
      const key = createHash("sha256").update(raw).digest("hex");
      return store.inbox(whatsappId).record(WEBHOOK_KIND, key, payload);
    },
    process,
    /** One sweep now (tests, and the timer's work). */
    runOnce: () => sweep(),
    start() {
      timer = setInterval(() => {
        if (sweeping) return;
        sweeping = sweep()
          .catch((error) => logger.error({ err: error }, "cloud webhook sweep failed"))
          .finally(() => {
            sweeping = undefined;
          });
      }, deps.sweepIntervalMs ?? 5_000);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await sweeping;
      await perConnection.idle();
    },
  };
}

export type CloudWebhooks = ReturnType<typeof createCloudWebhooks>;
