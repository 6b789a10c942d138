import type { FastifyBaseLogger } from "fastify";
import { pgErrorCode } from "../lib/pg-errors.js";

/** What a client is told to wait before trying again while the database is down. */
export const RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);
/** SQLSTATEs of a server that is going away or not taking connections. */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** Driver messages for a connection that is gone (pg and PGlite give no code for these). */
const GONE =
  /PGlite is closed|Cannot use a pool after calling end|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/i;

/** Whether an error means the database cannot be reached (as opposed to a query it refused). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const state = pgErrorCode(error);
  if (state && (state.startsWith("08") || UNAVAILABLE_STATES.has(state))) return true;
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    if (typeof message === "string" && GONE.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * One log line per outage, not one per request: the first failure logs and starts probing the
 * database; the probe that succeeds logs the recovery and arms the next outage's log line.
 */
export function createOutageMonitor(deps: { probe(): Promise<unknown>; logger: FastifyBaseLogger; probeMs?: number }) {
  const probeMs = deps.probeMs ?? RETRY_AFTER_SECONDS * 1000;
  let down = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function scheduleProbe() {
    if (closed) return;
    timer = setTimeout(() => {
      deps.probe().then(
        () => {
          down = false;
          deps.logger.info("database reachable again");
        },
        () => scheduleProbe(),
      );
    }, probeMs);
    timer.unref();
  }

  return {
    get down() {
      return down;
    },
    failed(error: unknown): void {
      if (down) return;
      down = true;
      deps.logger.error({ err: error }, "database unavailable: answering 503 until it is reachable again");
      scheduleProbe();
    },
    close(): void {
      closed = true;
      clearTimeout(timer);
    },
  };
}

export type OutageMonitor = ReturnType<typeof createOutageMonitor>;
