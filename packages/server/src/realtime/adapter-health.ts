import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";

/**
 * Whether the Redis adapter can reach the other processes, and what to do when it can again.
 * While Redis is lost, events published by any process do not reach the others' sockets and
 * cannot be replayed; once both connections are back (and the subscriptions restored) every
 * socket is told to refetch what it shows.
 */
export function watchAdapter(
  pub: Redis,
  sub: Redis,
  deps: { logger: FastifyBaseLogger; onRecovered(): void; isClosing(): boolean },
) {
  let everReady = false;
  let lost = false;
  const ready = () => pub.status === "ready" && sub.status === "ready";

  function leave() {
    if (!everReady || lost || deps.isClosing()) return;
    lost = true;
    deps.logger.warn("redis (realtime) lost: events reach this process's sockets only until it is back");
  }

  async function arrive() {
    if (!ready()) return;
    everReady = true;
    if (!lost) return;
    lost = false;
    try {
      // ioredis restores the subscriptions after "ready": a round trip on the subscriber
      // connection means they are in place before the sockets are told to refetch.
      await sub.ping();
    } catch {
      return;
    }
    if (deps.isClosing()) return;
    deps.logger.info("redis (realtime) back: every socket refetches what it shows");
    deps.onRecovered();
  }

  for (const client of [pub, sub]) {
    client.on("close", leave);
    client.on("ready", () => void arrive());
  }

  return {
    /**
     * Through the adapter, or this process's sockets only. Before the first connection the
     * adapter is used (its commands wait for the connection); after a loss, only local sockets.
     */
    get reachesOthers(): boolean {
      return !everReady || ready();
    },
  };
}
