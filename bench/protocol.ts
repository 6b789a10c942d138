import type { Plan } from "./explain.js";
import type { DataSet } from "./generate.js";
import type { IngestOptions, IngestResult } from "./ingest.js";

/** "embedded": the PostgreSQL that `npm start` runs in DATA_DIR (issue 19); "postgres": a server (DATABASE_URL). */
export type Engine = "embedded" | "postgres";

/** What the benchmark server process reports once it listens. */
export interface ReadyInfo {
  engine: Engine;
  port: number;
  serverVersion: string;
  data: DataSet;
  generateMs: number;
  /** `queueAgents`: agents who see the ingest connection's queue (the fan-out's sockets). */
  /** `agents` and `admins`: the crowd's (DataSet.crowd), one per worker of a heavy scenario. */
  tokens: { agent: string; admin: string; queueAgents: string[]; agents: string[]; admins: string[] };
}

export interface IngestCheck {
  tickets: number;
  contacts: number;
  messages: number;
}

/** Cumulative CPU time (ms) of the server process and, on PostgreSQL, of its database backends. */
export interface CpuSample {
  nodeMs: number;
  dbMs: number;
  /** Statements sent to PostgreSQL so far. */
  queries: number;
  /**
   * The server's longest event-loop stall since the previous sample, ms (perf_hooks'
   * monitorEventLoopDelay, 10 ms resolution): how long one piece of work held Node's only thread.
   * Not sampled in the runner's own process (0 there).
   */
  loopMaxMs: number;
}

export type ToServer =
  | { type: "ingest"; options: IngestOptions }
  | { type: "check"; numberPrefix: string }
  /** BENCH_RULES: handle what the rules' queue holds now (the HTTP ingest's span ends with it). */
  | { type: "drainRules" }
  | { type: "cpu" }
  | { type: "explain" }
  | { type: "stop" };

export type FromServer =
  | { type: "ready"; info: ReadyInfo }
  | { type: "ingest"; result: IngestResult }
  | { type: "check"; result: IngestCheck }
  | { type: "drainRules"; events: number }
  | { type: "cpu"; sample: CpuSample }
  | { type: "explain"; plans: Plan[] }
  | { type: "stopped" }
  | { type: "error"; message: string };
