import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { guardPool, poolOptions } from "./pool-guard.js";
import * as schema from "./schema.js";

export type Schema = typeof schema;
/** One type for both drivers: repositories run unchanged on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Run raw SQL (migrations, health checks). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, for fast test clones. */
  dump?(): Promise<Blob>;
}

export interface OpenDatabaseOptions {
  url?: string;
  dataDir?: string;
  /** PGlite: start from a dump instead of running initdb (tests). */
  loadDataDir?: Blob;
  poolSize?: number;
  /** PostgreSQL: how long opening a connection may take (default 10 s; tests of an outage shorten it). */
  connectTimeoutMs?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10, options.connectTimeoutMs);
  return openPglite(options.dataDir, options.loadDataDir);
}

async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<Database> {
  let dir: string | undefined;
  if (dataDir) {
    dir = join(dataDir, "pgdata");
    mkdirSync(dir, { recursive: true });
  }
  const client = await PGlite.create(dir ?? "memory://", { extensions: { pg_trgm, unaccent }, loadDataDir });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    exec: async (sql) => {
      await client.exec(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
    close: () => client.close(),
    dump: () => client.dumpDataDir("none") as Promise<Blob>,
  };
}

async function openPostgres(url: string, poolSize: number, connectTimeoutMs?: number): Promise<Database> {
  const pool = new pg.Pool(poolOptions(url, poolSize, connectTimeoutMs));
  guardPool(pool);
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
