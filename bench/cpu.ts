import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import type { Database } from "../packages/server/src/db/client.js";
import type { CpuSample } from "./protocol.js";

// Linux reports process times in clock ticks; 100 a second on every mainstream kernel config.
const TICK_MS = 10;

let queries = 0;

/**
 * Count round trips to PostgreSQL (every statement node-postgres sends, BEGIN and COMMIT included):
 * how many an operation needs explains most of its cost. Installed before the pool is created.
 */
export function countQueries(): void {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    queries += 1;
    return Reflect.apply(original, this, args);
  };
}

/**
 * CPU time used so far by this process and by the PostgreSQL backends serving its database (the
 * embedded server's too: its processes are this machine's).
 * On a shared machine wall-clock latencies move with the neighbours' load; CPU per request
 * does not, so both are reported. A backend's time is remembered after it exits (pool churn).
 */
export function cpuSampler(database: Database) {
  const backends = new Map<number, number>();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  return async (): Promise<CpuSample> => {
    // The histogram's max is the timer's lateness: the resolution is not a stall, so it is taken off.
    const loopMaxMs = Math.max(0, Math.round((loop.max / 1e6 - 10) * 10) / 10);
    loop.reset();
    const usage = process.cpuUsage();
    const nodeMs = (usage.user + usage.system) / 1000;
    const sampling = queries;
    const rows = await database.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'",
    );
    for (const { pid } of rows) {
      try {
        // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        backends.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
      } catch {
        // the backend exited between the query and the read: keep its last value
      }
    }
    let dbMs = 0;
    for (const ms of backends.values()) dbMs += ms;
    // The sampling query itself is not the workload's.
    return { nodeMs, dbMs, queries: sampling, loopMaxMs };
  };
}
