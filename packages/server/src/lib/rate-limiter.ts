import type { Redis } from "ioredis";
import { AppError } from "./app-error.js";

/** 429 ERR_RATE_LIMITED with a Retry-After of at least a second. */
export function rateLimitedError(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError("ERR_RATE_LIMITED", {
    message: `Too many attempts. Try again in ${seconds} s.`,
    retryAfterSeconds: seconds,
  });
}

export interface RateLimiter {
  /** Count one attempt for `key`; false once the window's allowance is spent. */
  hit(key: string): Promise<{ allowed: boolean; retryAfterMs: number }>;
  reset(key: string): Promise<void>;
}

/**
 * Counts failures only. After `free` failures in a row the key must wait before its next
 * attempt is even looked at: `baseDelayMs`, doubling with each further failure, at most
 * `maxDelayMs`. Failures are forgotten once the key stayed quiet for `windowMs` after its wait.
 */
export interface FailureLimiter {
  /** How long `key` must still wait before its next attempt (0: it may try now). */
  waitMs(key: string): Promise<number>;
  /** Count a failure; returns the wait it now imposes. */
  fail(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

export interface FailurePolicy {
  windowMs: number;
  free: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The wait after the `failures`-th failure in a row. */
export function failureDelay(policy: FailurePolicy, failures: number): number {
  const excess = failures - policy.free;
  if (excess < 0) return 0;
  return Math.min(policy.baseDelayMs * 2 ** Math.min(excess, 40), policy.maxDelayMs);
}

export function createMemoryRateLimiter(options: { windowMs: number; max: number; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now;
  const buckets = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key) {
      const t = now();
      if (buckets.size > 10000) {
        for (const [k, b] of buckets) if (b.resetAt <= t) buckets.delete(k);
      }
      let bucket = buckets.get(key);
      if (!bucket || bucket.resetAt <= t) {
        bucket = { count: 0, resetAt: t + options.windowMs };
        buckets.set(key, bucket);
      }
      bucket.count++;
      return { allowed: bucket.count <= options.max, retryAfterMs: Math.max(0, bucket.resetAt - t) };
    },
    async reset(key) {
      buckets.delete(key);
    },
  };
}

/** Shared counters, so the limit holds across every process of a scaled-out install. */
export function createRedisRateLimiter(redis: Redis, options: { windowMs: number; max: number; prefix: string }): RateLimiter {
  return {
    async hit(key) {
      const k = `${options.prefix}:${key}`;
      const results = await redis.multi().set(k, "0", "PX", options.windowMs, "NX").incr(k).pttl(k).exec();
      const count = Number(results?.[1]?.[1] ?? 0);
      const ttl = Number(results?.[2]?.[1] ?? options.windowMs);
      return { allowed: count <= options.max, retryAfterMs: Math.max(0, ttl) };
    },
    async reset(key) {
      await redis.del(`${options.prefix}:${key}`);
    },
  };
}

interface FailureState {
  failures: number;
  /** No attempt is looked at before this time (ms). */
  until: number;
}

const forgotten = (state: FailureState | undefined, policy: FailurePolicy, t: number) =>
  !state || t - state.until >= policy.windowMs;

export function createMemoryFailureLimiter(policy: FailurePolicy, now: () => number = Date.now): FailureLimiter {
  const states = new Map<string, FailureState>();
  return {
    async waitMs(key) {
      return Math.max(0, (states.get(key)?.until ?? 0) - now());
    },
    async fail(key) {
      const t = now();
      if (states.size > 10000) {
        for (const [k, s] of states) if (forgotten(s, policy, t)) states.delete(k);
      }
      const previous = states.get(key);
      const failures = (previous && !forgotten(previous, policy, t) ? previous.failures : 0) + 1;
      const delay = failureDelay(policy, failures);
      states.set(key, { failures, until: t + delay });
      return delay;
    },
    async reset(key) {
      states.delete(key);
    },
  };
}

// One round trip, atomic across processes: count the failure (afresh after a quiet window), set the wait.
const FAIL_SCRIPT = `
local now = tonumber(ARGV[1])
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '-1')
local failures = 0
if untilMs >= 0 and now - untilMs < tonumber(ARGV[2]) then failures = tonumber(redis.call('HGET', KEYS[1], 'failures')) end
failures = failures + 1
local excess = failures - tonumber(ARGV[4])
local delay = 0
if excess >= 0 then delay = math.floor(math.min(tonumber(ARGV[5]) * 2 ^ math.min(excess, 40), tonumber(ARGV[6]))) end
redis.call('HSET', KEYS[1], 'failures', failures, 'until', string.format('%d', now + delay))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return delay
`;

/**
 * The same across processes. Times come from the app's clock (stored in the hash), Redis's
 * own expiry only tidies keys away.
 */
export function createRedisFailureLimiter(
  redis: Redis,
  policy: FailurePolicy & { prefix: string },
  now: () => number = Date.now,
): FailureLimiter {
  const k = (key: string) => `${policy.prefix}:${key}`;
  const keepMs = policy.windowMs + policy.maxDelayMs;
  return {
    async waitMs(key) {
      const until = await redis.hget(k(key), "until");
      return until === null ? 0 : Math.max(0, Number(until) - now());
    },
    async fail(key) {
      const { windowMs, free, baseDelayMs, maxDelayMs } = policy;
      return Number(await redis.eval(FAIL_SCRIPT, 1, k(key), now(), windowMs, keepMs, free, baseDelayMs, maxDelayMs));
    },
    async reset(key) {
      await redis.del(k(key));
    },
  };
}
