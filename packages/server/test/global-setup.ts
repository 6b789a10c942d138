import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client.js";
import { migrate } from "../src/db/migrate.js";

/**
 * Migrate once per run. Embedded: a PGlite data dir dumped to a file that each
 * test file loads (~0.3 s instead of initdb). PostgreSQL (TEST_DATABASE_URL): a
 * uniquely named template database that each test file clones, dropped at the end.
 */
export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `zapdesk_tpl_${runId}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const database = await openDatabase({ url: withDatabase(serverUrl, template), poolSize: 1 });
    await migrate(database);
    await database.close();
    await admin.end();
    project.provide("pgTemplate", template);
    project.provide("pgRunId", runId);
    return async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like $1", [
        `zapdesk_%${runId}%`,
      ]);
      for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
      await client.end();
    };
  }
  const dir = join(tmpdir(), `zapdesk-test-${runId}`);
  mkdirSync(dir, { recursive: true });
  const database = await openDatabase({});
  await migrate(database);
  const dump = await database.dump!();
  await database.close();
  const file = join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteDump", file);
  project.provide("pgRunId", runId);
  return () => rmSync(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    pgTemplate: string;
    pgliteDump: string;
    pgRunId: string;
  }
}
