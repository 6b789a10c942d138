/**
 * A PostgreSQL database of its own for a bench script: created on the server BENCH_PG_URL names
 * (loopback only), migrated, handed to `work`, and dropped afterwards whatever happens.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../packages/server/src/db/client.js";
import { migrate } from "../packages/server/src/db/migrate.js";

export const benchPgUrl = (): URL => {
  const url = new URL(process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) throw new Error("BENCH_PG_URL must point at loopback");
  return url;
};

export async function withScratchDatabase<T>(
  prefix: string,
  options: { poolSize: number },
  work: (database: Database) => Promise<T>,
): Promise<T> {
  const server = benchPgUrl();
  const name = `${prefix}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), poolSize: options.poolSize });
    try {
      await migrate(database);
      return await work(database);
    } finally {
      await database.close();
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
