import type pg from "pg";
import { type Database, openDatabase } from "../src/db/client.js";

/**
 * A one-connection handle on `url` whose round trips to PostgreSQL are counted (the ReadyForQuery
 * messages its connection receives): what the pipelines (db/begin-pipeline.ts, db/pipeline.ts) save.
 */
export async function countedConnection(url: string): Promise<{ one: Database; pool: pg.Pool; roundTrips(): number }> {
  const one = await openDatabase({ url, poolSize: 1, connectTimeoutMs: 5000 });
  const pool = (one.db as unknown as { $client: pg.Pool }).$client;
  let trips = 0;
  pool.on("connect", (client) => {
    (client as unknown as { connection: NodeJS.EventEmitter }).connection.on("readyForQuery", () => {
      trips += 1;
    });
  });
  return { one, pool, roundTrips: () => trips };
}
