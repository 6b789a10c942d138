/**
 * The real app (bench/app-config.ts) in the bench script's own process, on a scratch PostgreSQL
 * database (BENCH_PG_URL) with the bench's data set at `scale`, listening on a random loopback port,
 * and the script forked again with the argument "client" as a load generator in a process of its
 * own: the server's CPU is then this process's (process.cpuUsage), the client's apart.
 * bench/request-cost.ts and bench/whaticket-contacts.ts use it.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AppHandle, buildApp } from "../packages/server/src/app.js";
import type { Database } from "../packages/server/src/db/client.js";
import { seed } from "../packages/server/src/db/seed.js";
import { benchConfig } from "./app-config.js";
import { type DataSet, generate } from "./generate.js";
import { withScratchDatabase } from "./scratch-db.js";

export interface InProcessApp {
  database: Database;
  data: DataSet;
  handle: AppHandle;
  port: number;
  /** The script's client process. */
  child: ChildProcess;
}

export async function withInProcessApp<T>(
  prefix: string,
  scale: number,
  /** The script's `import.meta.url`: what the client process runs. */
  script: string,
  /** Before the app is built: tables of the script's own, say. */
  prepare: (database: Database, data: DataSet) => Promise<void>,
  work: (app: InProcessApp) => Promise<T>,
): Promise<T> {
  return withScratchDatabase(prefix, { poolSize: 10 }, async (database) => {
    await seed(database.db, { email: "admin@bench.test", password: "bench-password", name: "Bench admin" });
    const data = await generate(database, scale);
    await prepare(database, data);
    const dataDir = mkdtempSync(join(tmpdir(), `${prefix.replaceAll("_", "-")}-`));
    const handle = await buildApp({
      config: benchConfig(dataDir, undefined),
      database,
      logger: false,
      accessTtlSeconds: 3600,
      simulator: { qrDelayMs: 0 },
    });
    const child = fork(fileURLToPath(script), ["client"], { execArgv: ["--import", "tsx"] });
    try {
      await handle.app.listen({ host: "127.0.0.1", port: 0 });
      await handle.start();
      const port = (handle.app.server.address() as AddressInfo).port;
      return await work({ database, data, handle, port, child });
    } finally {
      child.kill();
      await handle.app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
