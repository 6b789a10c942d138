import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import pg from "pg";
import { type EmbeddedOptions, type EmbeddedServer, startEmbeddedPostgres } from "./embedded/embedded-postgres.js";
import { moveFromPglite } from "./embedded/pglite-move.js";
import * as schema from "./schema.js";

export { type EmbeddedConnection, embeddedConnection } from "./embedded/embedded-postgres.js";

export type Schema = typeof schema;
/** One type for every connection: repositories run unchanged on the embedded server and on any PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  /** "postgres" for DATABASE_URL, "embedded" for the PostgreSQL that Zapdesk runs itself in DATA_DIR. */
  kind: "embedded" | "postgres";
  /** The embedded server (start details, connection, stop), when Zapdesk runs it. */
  embedded?: EmbeddedServer;
  /** Run raw SQL (migrations, health checks). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL server (DATABASE_URL). */
  url?: string;
  /** Without a url: the embedded PostgreSQL of this DATA_DIR, started here and stopped by close(). */
  dataDir?: string;
  poolSize?: number;
  /** Embedded server options (settings, log). */
  embedded?: Omit<EmbeddedOptions, "dataDir">;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10);
  if (!options.dataDir) throw new Error("openDatabase needs a url or a dataDir");
  return openEmbedded(options.dataDir, options.poolSize ?? 10, options.embedded);
}

/**
 * Start the embedded server of a DATA_DIR, move an embedded PGlite install over on its first
 * start (pglite-move.ts), and connect. close() ends the pool, then stops the server.
 */
async function openEmbedded(dataDir: string, poolSize: number, options: OpenDatabaseOptions["embedded"]): Promise<Database> {
  const server = await startEmbeddedPostgres({ ...options, dataDir });
  try {
    await moveFromPglite(dataDir, server.connection.url, options?.log);
    const database = await openPostgres(server.connection.url, poolSize);
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

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that errors (server restart) must not crash the process.
  pool.on("error", () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    exec: async (sql) => {
      await pool.query(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params as unknown[])).rows as T[],
    close: () => pool.end(),
  };
}
