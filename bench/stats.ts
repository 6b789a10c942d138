import type { CpuSample } from "./protocol.js";

export interface Summary {
  count: number;
  errors: number;
  seconds: number;
  /** Completed operations per second (requests or messages). */
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  cpuPerOp?: CpuPerOp;
  /** The server's longest event-loop stall while the work ran, ms (CpuSample.loopMaxMs). */
  serverStallMs?: number;
}

/** Nearest-rank percentile of sorted values (ms). */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export function summarize(latenciesMs: number[], errors: number, seconds: number): Summary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    count: sorted.length,
    errors,
    seconds: round(seconds, 2),
    rate: round(sorted.length / seconds),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
  };
}

/** Run `workers` closed loops until `shouldStop` says so; each loop awaits one operation before the next. */
export async function closedLoop(workers: number, shouldStop: () => boolean, operation: (worker: number) => Promise<void>) {
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (!shouldStop()) await operation(worker);
    }),
  );
}

/** CPU milliseconds spent per completed operation: by the server process, its database backends, and the load generator. */
export interface CpuPerOp {
  server: number;
  db: number;
  client: number;
  /** Round trips to PostgreSQL per operation (server engine only). */
  queries: number;
}

export type Sampler = () => Promise<CpuSample>;

/** Measure `work`'s CPU cost on both sides of the socket; `count` reads the operations it completed. */
export async function withCpu<T extends { count: number }>(
  sampler: Sampler,
  work: () => Promise<T>,
): Promise<T & { cpuPerOp: CpuPerOp; serverStallMs: number }> {
  const before = await sampler();
  const client = process.cpuUsage();
  const result = await work();
  const clientUsed = process.cpuUsage(client);
  const after = await sampler();
  const per = (ms: number) => round(ms / Math.max(1, result.count), 2);
  return {
    ...result,
    cpuPerOp: {
      server: per(after.nodeMs - before.nodeMs),
      db: per(after.dbMs - before.dbMs),
      client: per((clientUsed.user + clientUsed.system) / 1000),
      queries: per(after.queries - before.queries),
    },
    // `before` reset the server's histogram: `after` holds the work's longest stall.
    serverStallMs: after.loopMaxMs,
  };
}
