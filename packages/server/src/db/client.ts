import { setPriority } from "node:os";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import pg from "pg";
import { type EmbeddedOptions, type EmbeddedServer, startEmbeddedPostgres } from "./embedded/embedded-postgres.js";
import { moveFromPglite } from "./embedded/pglite-move.js";
import { CONNECT_TIMEOUT_MS, guardPool, poolOptions } from "./pool-guard.js";
import { installPoolTransactionFix } from "./pool-transaction.js";
import * as schema from "./schema.js";

export { type EmbeddedConnection, embeddedConnection } from "./embedded/embedded-postgres.js";

installPoolTransactionFix();

export type Schema = typeof schema;
/** One type for every connection: repositories run unchanged on the embedded server and on any PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  /**
   * Issue 19: searches and dashboard reads. A few connections of their own, each with a
   * statement_timeout (HEAVY_READ_TIMEOUT_MS): a scan of the whole history can neither take every
   * connection of the main pool nor run for minutes.
   */
  heavy: Db;
  /** "postgres" for DATABASE_URL, "embedded" for the PostgreSQL that Zapdesk runs itself in DATA_DIR. */
  kind: "embedded" | "postgres";
  /** The embedded server (start details, connection, stop), when Zapdesk runs it. */
  embedded?: EmbeddedServer;
  /** Run raw SQL (migrations, health checks). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Is the database answering? Over a connection of its own (issue 19), so that /api/health and the
   * outage monitor say whether PostgreSQL answers, not how long the main pool's queue is: ten agents'
   * inboxes holding every main connection must not make a health check wait behind them.
   */
  ping(): Promise<void>;
  /**
   * A connection of its own, outside every pool, not yet connected: for a LISTEN that must stay on
   * one backend (issue 24 item 5: the signed-in users' cache hears from the database what changed).
   */
  newClient(applicationName: string): pg.Client;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL server (DATABASE_URL). */
  url?: string;
  /** Without a url: the embedded PostgreSQL of this DATA_DIR, started here and stopped by close(). */
  dataDir?: string;
  poolSize?: number;
  /**
   * The heavy-read pool: its size (default 3), statement_timeout (default 15 s), and, where the
   * database runs on this machine under our control (embedded), the scheduling priority its
   * backends are lowered to (a nice value; default HEAVY_READ_NICE there, none on a server).
   */
  heavyReads?: { poolSize?: number; timeoutMs?: number; nice?: number };
  /** Embedded server options (settings, log). */
  embedded?: Omit<EmbeddedOptions, "dataDir">;
  /** PostgreSQL: how long opening a connection may take (default 10 s; tests of an outage shorten it). */
  connectTimeoutMs?: number;
}

export const HEAVY_READ_TIMEOUT_MS = 15_000;
export const HEAVY_READ_APPLICATION = "zapdesk heavy read";
export const PROBE_APPLICATION = "zapdesk health probe";
/**
 * Embedded: the heavy-read backends run at this nice value. On the one machine Zapdesk and its
 * database share, a search that scans the history for seconds would otherwise take a core from
 * every agent's inbox and from Node itself (measured in docs/benchmarks.md, issue 19); niced, it
 * gets the CPU the interactive work leaves. An unprivileged process can lower a priority but not
 * raise it back, which is why these connections stay in their own pool.
 */
export const HEAVY_READ_NICE = 10;

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options);
  if (!options.dataDir) throw new Error("openDatabase needs a url or a dataDir");
  return openEmbedded(options.dataDir, options);
}

/**
 * Start the embedded server of a DATA_DIR, move an embedded PGlite install over on its first
 * start (pglite-move.ts), and connect. close() ends the pool, then stops the server.
 */
async function openEmbedded(dataDir: string, options: OpenDatabaseOptions): Promise<Database> {
  const server = await startEmbeddedPostgres({ ...options.embedded, dataDir });
  try {
    await moveFromPglite(dataDir, server.connection.url, options.embedded?.log);
    const database = await openPostgres(server.connection.url, {
      ...options,
      heavyReads: { nice: HEAVY_READ_NICE, ...options.heavyReads },
    });
    return {
      ...database,
      kind: "embedded",
      embedded: server,
      close: async () => {
        await database.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const pool = new pg.Pool(poolOptions(url, options.poolSize ?? 10, options.connectTimeoutMs));
  const timeout = options.heavyReads?.timeoutMs ?? HEAVY_READ_TIMEOUT_MS;
  const nice = options.heavyReads?.nice;
  const heavyPool = new pg.Pool({
    ...poolOptions(url, options.heavyReads?.poolSize ?? 3, options.connectTimeoutMs),
    // Named, so pg_stat_activity tells heavy reads apart (the admin's eye, and the tests).
    application_name: HEAVY_READ_APPLICATION,
    // One core at most: parallel workers would let one user's search take every core the
    // interactive requests need (the heavy reads are bounded in time, not in parallelism).
    options: `-c statement_timeout=${Math.max(1, Math.round(timeout))} -c max_parallel_workers_per_gather=0`,
    // Awaited by the pool before it hands the new connection out.
    onConnect: nice === undefined ? undefined : (client) => lowerPriority(client, nice),
  });
  // One connection, for ping() alone, kept open once made (idleTimeoutMillis 0): a health check that
  // first had to start a backend while the CPU is busy took hundreds of ms (bench, issue 19).
  const probePool = new pg.Pool({
    ...poolOptions(url, 1, options.connectTimeoutMs),
    application_name: PROBE_APPLICATION,
    idleTimeoutMillis: 0,
  });
  guardPool(pool);
  guardPool(heavyPool);
  guardPool(probePool);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    heavy: drizzlePg(heavyPool, { schema }) as unknown as Db,
    kind: "postgres",
    exec: async (sql) => {
      await pool.query(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params as unknown[])).rows as T[],
    ping: async () => {
      await probePool.query("select 1");
    },
    newClient: (applicationName) =>
      new pg.Client({
        connectionString: url,
        application_name: applicationName,
        connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
        keepAlive: true,
      }),
    close: async () => {
      await Promise.all([pool.end(), heavyPool.end(), probePool.end()]);
    },
  };
}

/**
 * Lower the priority of a new connection's backend process, before the pool hands it out. A
 * failure (another OS user's server without the right to renice it) leaves the backend at its
 * priority: slower for others, never wrong.
 */
async function lowerPriority(client: pg.ClientBase, nice: number): Promise<void> {
  try {
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    setPriority(rows[0]!.pid, nice);
  } catch {
    // Not ours to renice, or the connection went away: nothing to lower.
  }
}
