import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";
import {
  createMemoryFailureLimiter,
  createMemoryRateLimiter,
  createRedisFailureLimiter,
  createRedisRateLimiter,
  type FailureLimiter,
  type FailurePolicy,
  type RateLimiter,
} from "./rate-limiter.js";
import { failureLimiterWithFallback, rateLimiterWithFallback, sharedOrLocal } from "./rate-limiter-fallback.js";

/**
 * The app's rate limiters: in memory in one process, in Redis when REDIS_URL is set so that a
 * limit holds across processes, falling back to memory while Redis cannot be reached.
 */
export function createLimiters(deps: { redisUrl?: string; now: () => number; logger: FastifyBaseLogger }) {
  const { now, logger } = deps;
  // Commands fail at once while Redis is unreachable (no offline queue), after 2 s when it hangs.
  const redis = deps.redisUrl
    ? new Redis(deps.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 2000 })
    : undefined;
  // Reconnection attempts repeat every few seconds: the outage itself is logged once, below.
  redis?.on("error", (error) => logger.debug({ err: error }, "redis (limits) error"));
  // Skipping Redis after a failure uses real time: the limiters' clock may be a test's hand-moved one.
  const use = sharedOrLocal({
    down: (error) => logger.warn({ err: error }, "redis unavailable: rate limits counted per process until it answers"),
    up: () => logger.info("redis reachable again: rate limits shared again"),
  });

  return {
    limiter(prefix: string, max: number, windowMs: number): RateLimiter {
      const local = createMemoryRateLimiter({ windowMs, max, now });
      return redis ? rateLimiterWithFallback(createRedisRateLimiter(redis, { windowMs, max, prefix }), local, use) : local;
    },
    failureLimiter(prefix: string, policy: FailurePolicy): FailureLimiter {
      const local = createMemoryFailureLimiter(policy, now);
      return redis ? failureLimiterWithFallback(createRedisFailureLimiter(redis, { ...policy, prefix }, now), local, use) : local;
    },
    async close(): Promise<void> {
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}
