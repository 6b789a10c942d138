import type { Redis } from "ioredis";

export interface RateLimiter {
  /** Count one attempt for `key`; false once the window's allowance is spent. */
  hit(key: string): Promise<{ allowed: boolean; retryAfterMs: number }>;
  reset(key: string): Promise<void>;
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
