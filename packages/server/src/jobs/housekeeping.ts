import type { FastifyBaseLogger } from "fastify";
import { purgeProcessed } from "../channels/inbound-log.js";
import type { Db } from "../db/client.js";

const EVERY_MS = 60 * 60 * 1000;

/** Hourly chores: processed inbound events older than a day are removed (any process may do it). */
export function createHousekeeping(deps: { db: Db; logger: FastifyBaseLogger; intervalMs?: number }) {
  let timer: NodeJS.Timeout | undefined;
  const run = () =>
    purgeProcessed(deps.db).catch((error) => deps.logger.warn({ err: error }, "could not purge processed inbound events"));
  return {
    start() {
      timer = setInterval(run, deps.intervalMs ?? EVERY_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
