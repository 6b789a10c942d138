/**
 * The set-up of the bench scripts that measure statements on one connection (search-cost.ts,
 * round-trip-cost.ts, inbox-plan-cost.ts): a scratch PostgreSQL database (scratch-db.ts) with a pool
 * of one connection, the bench's admin and its data set at `scale`, the pool's client, and that
 * connection's backend CPU so far (utime + stime from /proc/<pid>/stat, in 10 ms ticks).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type pg from "pg";
import type { Database } from "../packages/server/src/db/client.js";
import { seed } from "../packages/server/src/db/seed.js";
import { type DataSet, generate } from "./generate.js";
import { withScratchDatabase } from "./scratch-db.js";

export interface OneConnection {
  database: Database;
  data: DataSet;
  /** The pool of one connection behind drizzle: the backend `ticks` reads. */
  client: pg.Pool;
  ticks(): number;
}

export function withOneConnection<T>(prefix: string, scale: number, work: (bench: OneConnection) => Promise<T>): Promise<T> {
  return withScratchDatabase(prefix, { poolSize: 1 }, async (database) => {
    await seed(database.db, { email: "admin@bench.test", password: randomBytes(9).toString("hex"), name: "Bench admin" });
    const data = await generate(database, scale);
    const [{ pid }] = await database.query<{ pid: number }>("select pg_backend_pid() as pid");
    const ticks = () => {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return Number(fields[11]) + Number(fields[12]);
    };
    const client = (database.db as unknown as { $client: pg.Pool }).$client;
    return work({ database, data, client, ticks });
  });
}
