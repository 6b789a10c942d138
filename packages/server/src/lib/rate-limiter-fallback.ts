import type { FailureLimiter, RateLimiter } from "./rate-limiter.js";

/** How long the shared store is left alone after it failed, before it is tried again. */
export const SHARED_RETRY_MS = 5000;

export interface SharedStoreLog {
  down(error: unknown): void;
  up(): void;
}

/**
 * The shared counters (Redis) when they answer, this process's own otherwise. Sign-in must not
 * fail or hang because Redis is down: each process then counts on its own (with N processes an
 * address gets at most N times its allowance) until Redis answers again. After a failure Redis is
 * skipped for SHARED_RETRY_MS, so a Redis that hangs costs one timeout per interval, not one per
 * request. One of these serves every limiter of the process, so an outage is logged once.
 */
export function sharedOrLocal(log: SharedStoreLog, now: () => number = Date.now) {
  let skipUntil = 0;
  let down = false;
  return async function use<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (now() < skipUntil) return local();
    try {
      const result = await shared();
      if (down) {
        down = false;
        log.up();
      }
      return result;
    } catch (error) {
      skipUntil = now() + SHARED_RETRY_MS;
      if (!down) {
        down = true;
        log.down(error);
      }
      return local();
    }
  };
}

export type SharedOrLocal = ReturnType<typeof sharedOrLocal>;

export function rateLimiterWithFallback(shared: RateLimiter, local: RateLimiter, use: SharedOrLocal): RateLimiter {
  return {
    hit: (key) =>
      use(
        () => shared.hit(key),
        () => local.hit(key),
      ),
    reset: (key) =>
      use(
        () => shared.reset(key),
        () => local.reset(key),
      ),
  };
}

export function failureLimiterWithFallback(shared: FailureLimiter, local: FailureLimiter, use: SharedOrLocal): FailureLimiter {
  return {
    waitMs: (key) =>
      use(
        () => shared.waitMs(key),
        () => local.waitMs(key),
      ),
    fail: (key) =>
      use(
        () => shared.fail(key),
        () => local.fail(key),
      ),
    reset: (key) =>
      use(
        () => shared.reset(key),
        () => local.reset(key),
      ),
  };
}
