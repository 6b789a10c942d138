import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client.js";
import { startEmbeddedPostgres } from "../src/db/embedded/embedded-postgres.js";
import { migrate } from "../src/db/migrate.js";
import { claimTemplate, dropAbandonedDatabases } from "./abandoned-databases.js";
import { claimRunFolder, removeAbandonedRuns, scratchRoot } from "./scratch-root.js";
import { buildServerBundle, bundleDirOf } from "./server-bundle.js";

/**
 * One PostgreSQL for the run, a database per test file. By default the embedded PostgreSQL that
 * `npm start` runs (started here in a temporary folder, durability off: nothing outlives the run);
 * with TEST_DATABASE_URL, that server. Migrated once into a uniquely named template that each
 * test file clones (harness.ts), all dropped at the end.
 *
 * Measured on six heavy files (70 tests) on this 2-core machine: 157 s wall and 55 s of CPU with
 * a PGlite database per file, 73 s and 25 s (test processes and server together) this way.
 */
export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  // In memory when the machine allows (scratch-root.ts).
  const root = scratchRoot();
  // Their compiled processes too (without a folder, a bundle goes when it is a day old: server-bundle.ts).
  for (const run of removeAbandonedRuns(root)) rmSync(bundleDirOf(run), { recursive: true, force: true });
  const dir = join(root, `zapdesk-test-${runId}`);
  mkdirSync(dir, { recursive: true });
  claimRunFolder(dir);
  // The temporary folder of every test process (test/setup.ts points TMPDIR at it, and the processes
  // tests start inherit it): whatever a test leaves in it goes with the run.
  const scratch = join(root, `zapdesk-tmp-${runId}`);
  mkdirSync(scratch, { recursive: true });
  // The processes some tests start (npm start, the CLIs), compiled once for the run (server-bundle.ts).
  const bundleDir = bundleDirOf(runId);
  const bundled = buildServerBundle(bundleDir);
  bundled.catch(() => {}); // awaited below, after the database
  const embedded = process.env.TEST_DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: dir,
        logFiles: false,
        // The suite's databases are small: the buffers of a 1 GB machine (256 MB), whatever this one has.
        memoryBytes: 1024 ** 3,
        // max_wal_size bounds what the write-ahead log keeps in memory when the folder is /dev/shm.
        settings: {
          fsync: "off",
          synchronous_commit: "off",
          full_page_writes: "off",
          max_connections: "300",
          max_wal_size: "512MB",
        },
      });
  const serverUrl = process.env.TEST_DATABASE_URL ?? withDatabase(embedded!.connection.url, "postgres");
  const template = `zapdesk_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // On a server the runs share, what runs killed before their teardown left (abandoned-databases.ts).
  if (process.env.TEST_DATABASE_URL) await dropAbandonedDatabases(admin);
  await admin.query(`create database ${template}`);
  await claimTemplate(admin, template);
  const database = await openDatabase({ url: withDatabase(serverUrl, template), poolSize: 1 });
  await migrate(database);
  await database.close();
  await admin.end();
  await bundled;
  project.provide("serverBundle", bundleDir);
  project.provide("pgServerUrl", serverUrl);
  project.provide("pgTemplate", template);
  project.provide("pgRunId", runId);
  project.provide("testTmpDir", scratch);
  return async () => {
    rmSync(bundleDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    if (embedded) {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
      return;
    }
    rmSync(dir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like $1", [
      `zapdesk_%${runId}%`,
    ]);
    for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
    await client.end();
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's PostgreSQL (the embedded one, or TEST_DATABASE_URL), connected to its `postgres` database. */
    pgServerUrl: string;
    pgTemplate: string;
    pgRunId: string;
    /** The run's temporary folder (TMPDIR of every test process), removed at the end. */
    testTmpDir: string;
    /** The folder of the run's compiled server processes (server-bundle.ts). */
    serverBundle: string;
  }
}
