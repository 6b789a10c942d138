import { createHmac, randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { DELIVERY_TIMEOUT_MS, type PostOutcome, postJson } from "./http-post.js";
import { eventData } from "./payloads.js";
import * as repo from "./webhooks.repo.js";
import { allowsPrivateTargets } from "./webhooks.service.js";

/** Retries: 30 s, 1 min, 2 min … doubling up to an hour apart, ±20 % jitter, for a day after the first attempt. */
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 60 * 60 * 1000;
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const BATCH = 10;
/** Finished deliveries stay in the log this long. */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** A claimed delivery is someone else's for this long (longer than one POST can take). */
const LEASE_MS = DELIVERY_TIMEOUT_MS * 6;
export const USER_AGENT = "Zapdesk-Webhooks/1.0";
export const UNREADABLE_SECRET = "The signing secret cannot be read (was ENCRYPTION_KEY changed?): create a new secret";

export function retryDelayMs(attempt: number, random: () => number): number {
  const base = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_MS);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** `sha256=<hex>`: HMAC-SHA256 of the exact bytes sent, keyed with the webhook's secret. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export interface DeliveryWorkerDeps {
  db: Db;
  secrets: SecretBox;
  logger: FastifyBaseLogger;
  clock?: Clock;
  pollMs?: number;
  timeoutMs?: number;
  /** Randomness of the retry jitter (tests pin it). */
  random?: () => number;
}

/**
 * POSTs what the triggers enqueued. Due rows are leased with SKIP LOCKED, so several processes
 * share the work and none sends a delivery twice at once; each attempt is logged and recorded.
 */
export function createDeliveryWorker(deps: DeliveryWorkerDeps) {
  const { db, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? Math.random;
  const pollMs = deps.pollMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let pruner: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  async function attempt(row: repo.DeliveryRow, allowPrivate: boolean) {
    const webhook = await repo.findWebhook(db, row.webhookId);
    if (!webhook) return;
    const now = clock.now();
    const body =
      row.body ?? JSON.stringify({ event: row.event, timestamp: row.createdAt.toISOString(), data: await eventData(db, row) });
    let outcome: PostOutcome;
    if (!webhook.enabled) {
      outcome = { ok: false, status: null, latencyMs: 0, snippet: null, error: repo.DISABLED_ERROR };
    } else {
      let secret: string;
      try {
        secret = deps.secrets.open(webhook.secret);
      } catch {
        // ENCRYPTION_KEY changed since the secret was stored: nothing can be signed until it is rotated.
        secret = "";
      }
      outcome = secret
        ? await postJson(
            webhook.url,
            body,
            {
              "user-agent": USER_AGENT,
              "x-zapdesk-event": row.event,
              "x-zapdesk-delivery": String(row.id),
              "x-zapdesk-signature": signBody(secret, body),
              "x-request-id": randomUUID(),
            },
            { allowPrivate, timeoutMs: deps.timeoutMs },
          )
        : { ok: false, status: null, latencyMs: 0, snippet: null, error: UNREADABLE_SECRET };
    }
    const attempts = row.attempts + 1;
    const firstAttemptAt = row.firstAttemptAt ?? now;
    let status = "success";
    let nextAttemptAt: Date | null = null;
    if (!outcome.ok) {
      const next = new Date(now.getTime() + retryDelayMs(attempts, random));
      const giveUp = !webhook.enabled || next.getTime() - firstAttemptAt.getTime() > RETRY_WINDOW_MS;
      status = giveUp ? "failed" : "pending";
      nextAttemptAt = giveUp ? null : next;
    }
    await repo.saveDelivery(db, row.id, {
      body,
      status,
      attempts,
      firstAttemptAt,
      lastAttemptAt: now,
      nextAttemptAt,
      lockedUntil: null,
      responseStatus: outcome.status,
      latencyMs: outcome.latencyMs,
      responseSnippet: outcome.snippet,
      error: outcome.error,
    });
    const log = { deliveryId: row.id, webhookId: row.webhookId, event: row.event, attempt: attempts, status: outcome.status };
    if (outcome.ok) logger.info({ ...log, latencyMs: outcome.latencyMs }, "webhook delivered");
    else logger.warn({ ...log, error: outcome.error, outcome: status, nextAttemptAt }, "webhook delivery failed");
  }

  async function tick() {
    do {
      again = false;
      const claimed = await repo.claimDue(db, clock.now(), BATCH, LEASE_MS);
      if (claimed.length === 0) break;
      const allowPrivate = await allowsPrivateTargets(db);
      // Different receivers do not wait for each other; one's trouble never stops the rest.
      await Promise.all(
        claimed.map((row) =>
          attempt(row, allowPrivate).catch((error) =>
            logger.error({ err: error, deliveryId: row.id }, "webhook delivery could not be recorded"),
          ),
        ),
      );
      again = true;
    } while (again && !stopped);
  }

  function run() {
    if (running) {
      again = true;
      return;
    }
    running = tick()
      .catch((error) => logger.error({ err: error }, "webhook worker tick failed"))
      .finally(() => {
        running = undefined;
      });
  }

  /** Old finished deliveries leave the log (any process may do it; they are idempotent deletes). */
  async function prune(): Promise<number> {
    return repo.pruneFinished(db, new Date(clock.now().getTime() - RETENTION_MS));
  }

  return {
    start() {
      stopped = false;
      timer = setInterval(run, pollMs);
      timer.unref();
      pruner = setInterval(
        () => prune().catch((error) => logger.warn({ err: error }, "could not prune webhook deliveries")),
        PRUNE_EVERY_MS,
      );
      pruner.unref();
      run();
    },
    prune,
    /** Something became due (a resend): try it now rather than at the next poll. */
    notify() {
      if (!stopped) run();
    },
    /** Run until nothing is due (tests). */
    async drain() {
      while (running) await running;
      const wasStopped = stopped;
      stopped = false;
      run();
      while (running) await running;
      stopped = wasStopped;
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (pruner) clearInterval(pruner);
      while (running) await running;
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
