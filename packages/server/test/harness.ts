import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type AppHandle, type BuildAppOptions, buildApp } from "../src/app.js";
import type { SimulatorHubOptions } from "../src/channels/simulator/simulator-hub.js";
import type { Config } from "../src/config.js";
import { type Database, openDatabase } from "../src/db/client.js";
import { seed } from "../src/db/seed.js";
import type { Clock } from "../src/lib/clock.js";
import { withDatabase } from "./global-setup.js";

export const ADMIN = { email: "admin@zapdesk.test", password: "admin-pass", name: "Admin" };

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: "test",
    port: 0,
    host: "127.0.0.1",
    // A folder of its own only when the test names none (a made and unused one was left in /tmp).
    dataDir: overrides.dataDir ?? mkdtempSync(join(tmpdir(), "zapdesk-data-")),
    jwtSecret: randomBytes(32).toString("hex"),
    jwtRefreshSecret: randomBytes(32).toString("hex"),
    adminEmail: ADMIN.email,
    adminName: ADMIN.name,
    adminPassword: ADMIN.password,
    // TEST_LOG=1 shows the server's errors while debugging a test.
    logLevel: process.env.TEST_LOG ? "error" : "silent",
    webDist: "/nonexistent",
    rateLimit: { windowMs: 60_000, perIp: 1000, perEmail: 1000 },
    redisUrl: process.env.TEST_REDIS_URL,
    encryptionKey: randomBytes(32).toString("hex"),
    graphUrl: "http://127.0.0.1:9/v25.0",
    mediaMaxBytes: 64 * 1024 * 1024,
    ...overrides,
  };
}

/**
 * A fresh, migrated database of its own: a clone of the run's template on the run's PostgreSQL
 * (global-setup.ts). `poolSize` connections (5 by default).
 */
export async function openTestDatabase(poolSize = 5): Promise<Database & { url: string; drop(): Promise<void> }> {
  const serverUrl = inject("pgServerUrl");
  const name = `zapdesk_t_${inject("pgRunId")}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject("pgTemplate")}`);
  await admin.end();
  const url = withDatabase(serverUrl, name);
  const database = await openDatabase({ url, poolSize });
  return {
    ...database,
    url,
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface TestApp extends AppHandle {
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    config?: Partial<Config>;
    accessTtlSeconds?: number;
    database?: Database;
    clock?: Clock;
    simulator?: SimulatorHubOptions;
    /** Channel factories instead of the real ones (e.g. Baileys over a fake or a local socket). */
    factories?: BuildAppOptions["factories"];
    /** Start WhatsApp sessions and the outbox worker (default true). */
    start?: boolean;
    /** Receive the server's log lines (set `config.logLevel` too). */
    logStream?: BuildAppOptions["logStream"];
    /** Issue 13: web push test options (a fake push service on http://127.0.0.1). */
    push?: BuildAppOptions["push"];
    /** The bytes of uploads read at once. */
    uploadBudget?: BuildAppOptions["uploadBudget"];
    /** Issue 23 §4: the deadline of one call to a queue's bot. */
    botTimeoutMs?: number;
  } = {},
): Promise<TestApp> {
  const owned = options.database ? undefined : await openTestDatabase();
  const database = options.database ?? owned!;
  const config = testConfig(options.config);
  await seed(database.db, { email: config.adminEmail, password: config.adminPassword, name: config.adminName });
  const handle = await buildApp({
    config,
    database,
    logger: process.env.TEST_LOG || options.logStream ? undefined : false,
    logStream: options.logStream,
    outageProbeMs: 50,
    accessTtlSeconds: options.accessTtlSeconds,
    clock: options.clock,
    simulator: { qrDelayMs: 0, ...options.simulator },
    factories: options.factories,
    sessionBackoff: { initialMs: 50, maxMs: 500 },
    outboxPollMs: 100,
    push: options.push,
    uploadBudget: options.uploadBudget,
    botTimeoutMs: options.botTimeoutMs,
  });
  await handle.app.ready();
  if (options.start !== false) await handle.start();
  return {
    ...handle,
    database,
    config,
    async close() {
      await handle.app.close();
      if (owned) {
        await owned.close();
        await owned.drop();
      }
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** A clock the test moves by hand: token expiry without waiting. */
export function manualClock(start = new Date()): Clock & { advance(ms: number): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
  };
}

/** The parts of an error answer that must never leak. */
export function expectNoLeak(body: string): void {
  if (
    /\bat .+:\d+:\d+\)?|node_modules|stack|select |insert into|update "|delete from|duplicate key|violates|syntax error/i.test(
      body,
    )
  ) {
    throw new Error(`error body leaks internals: ${body.slice(0, 300)}`);
  }
}

/** The rows of a drizzle `db.execute(sql…)` result (node-postgres's QueryResult). */
export const rowsOf = <T = Record<string, unknown>>(result: unknown): T[] => (result as { rows: T[] }).rows;
