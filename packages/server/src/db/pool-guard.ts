import type pg from "pg";

/** How long opening a connection may take before it counts as the database being unreachable. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * What a PostgreSQL pool needs so that a database going away is an outage the API answers with
 * 503, not a crash or a hang:
 * - pg-pool drops its error listener from a client while it is checked out (a transaction between
 *   two statements), so that client's connection dying emits an unhandled 'error' and ends the
 *   process. A listener on every client keeps the process up; the holder's next statement fails
 *   with "not queryable", which the error handler knows.
 * - without a connect timeout a connection to a host that accepts but never answers (a frozen
 *   server, a half-open proxy) waits forever, and a few of them fill the pool: every request hangs.
 */
export function guardPool(pool: pg.Pool): void {
  // An idle client that errors (server restart) must not crash the process either.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
}

export function poolOptions(url: string, max: number, connectTimeoutMs = CONNECT_TIMEOUT_MS): pg.PoolConfig {
  return { connectionString: url, max, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true };
}
