import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client.js";
import { type Clock, systemClock } from "../lib/clock.js";
import { pruneRuleLog } from "../modules/automation-rules/rules.repo.js";
import { purgeProcessed } from "../modules/connections/inbound-log.repo.js";
import { expireRatings } from "../modules/csat/ratings.js";

const EVERY_MS = 60 * 60 * 1000;

/**
 * Hourly chores (any process may do them): processed inbound events older than a day are removed;
 * satisfaction questions past their window expire (issue 11); the automation rules' log older than
 * 30 days goes (issue 23 §1: it grew with every event).
 */
export function createHousekeeping(deps: { db: Db; logger: FastifyBaseLogger; intervalMs?: number; clock?: Clock }) {
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    await purgeProcessed(deps.db).catch((error) => deps.logger.warn({ err: error }, "could not purge processed inbound events"));
    await expireRatings(deps.db, (deps.clock ?? systemClock).now()).catch((error) =>
      deps.logger.warn({ err: error }, "could not expire satisfaction questions"),
    );
    await pruneRuleLog(deps.db, (deps.clock ?? systemClock).now()).catch((error) =>
      deps.logger.warn({ err: error }, "could not prune the automation rules' log"),
    );
  };
  return {
    /** One round of the chores now (tests; the timer calls it hourly). */
    run,
    start() {
      timer = setInterval(run, deps.intervalMs ?? EVERY_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
