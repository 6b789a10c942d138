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
  /**
   * `run` called `warmUp` times, then `runs` times measured: per run, Node's CPU, the connection's
   * backend CPU (in 10 ms ticks, so averaged over many runs; `dbUser` and `dbSystem` its two parts)
   * and the wall time, in ms.
   */
  perRun(
    run: () => Promise<unknown>,
    runs: number,
    warmUp?: number,
  ): Promise<{ node: number; db: number; dbUser: number; dbSystem: number; wall: number }>;
}

export function withOneConnection<T>(prefix: string, scale: number, work: (bench: OneConnection) => Promise<T>): Promise<T> {
  return withScratchDatabase(prefix, { poolSize: 1 }, async (database) => {
    await seed(database.db, { email: "admin@bench.test", password: randomBytes(9).toString("hex"), name: "Bench admin" });
    const data = await generate(database, scale);
    const [{ pid }] = await database.query<{ pid: number }>("select pg_backend_pid() as pid");
    // utime and stime, the 12th and 13th fields after the parenthesised command name.
    const times = () => {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return { user: Number(fields[11]), system: Number(fields[12]) };
    };
    const ticks = () => {
      const { user, system } = times();
      return user + system;
    };
    const client = (database.db as unknown as { $client: pg.Pool }).$client;
    const perRun: OneConnection["perRun"] = async (run, runs, warmUp = 10) => {
      for (let i = 0; i < warmUp; i++) await run();
      const cpu = process.cpuUsage();
      const before = times();
      const started = performance.now();
      for (let i = 0; i < runs; i++) await run();
      const node = process.cpuUsage(cpu);
      const after = times();
      const [dbUser, dbSystem] = [((after.user - before.user) * 10) / runs, ((after.system - before.system) * 10) / runs];
      return {
        node: (node.user + node.system) / 1000 / runs,
        db: dbUser + dbSystem,
        dbUser,
        dbSystem,
        wall: (performance.now() - started) / runs,
      };
    };
    return work({ database, data, client, ticks, perRun });
  });
}
