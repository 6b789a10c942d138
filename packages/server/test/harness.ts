import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type AppHandle, buildApp } from "../src/app.js";
import type { Config } from "../src/config.js";
import { type Database, openDatabase } from "../src/db/client.js";
import { seed } from "../src/db/seed.js";
import { withDatabase } from "./global-setup.js";

export const ADMIN = { email: "admin@zapdesk.test", password: "admin-pass", name: "Admin" };

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: "test",
    port: 0,
    host: "127.0.0.1",
    dataDir: mkdtempSync(join(tmpdir(), "zapdesk-data-")),
    jwtSecret: randomBytes(32).toString("hex"),
    jwtRefreshSecret: randomBytes(32).toString("hex"),
    adminEmail: ADMIN.email,
    adminName: ADMIN.name,
    adminPassword: ADMIN.password,
    logLevel: "silent",
    webDist: "/nonexistent",
    rateLimit: { windowMs: 60_000, perIp: 1000, perEmail: 1000 },
    redisUrl: process.env.TEST_REDIS_URL,
    ...overrides,
  };
}

/** A fresh, migrated database of its own: PGlite from the run's dump, or a clone of the PostgreSQL template. */
export async function openTestDatabase(): Promise<Database & { url?: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `zapdesk_t_${inject("pgRunId")}_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject("pgTemplate")}`);
    await admin.end();
    const url = withDatabase(serverUrl, name);
    const database = await openDatabase({ url, poolSize: 5 });
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
  const dump = new Blob([readFileSync(inject("pgliteDump"))]);
  const database = await openDatabase({ loadDataDir: dump });
  return { ...database, drop: async () => {} };
}

export interface TestApp extends AppHandle {
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export async function createTestApp(
  options: { config?: Partial<Config>; accessTtlSeconds?: number; database?: Database } = {},
): Promise<TestApp> {
  const owned = options.database ? undefined : await openTestDatabase();
  const database = options.database ?? owned!;
  const config = testConfig(options.config);
  await seed(database.db, { email: config.adminEmail, password: config.adminPassword, name: config.adminName });
  const handle = await buildApp({ config, database, logger: false, accessTtlSeconds: options.accessTtlSeconds });
  await handle.app.ready();
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
