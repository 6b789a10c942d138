import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/harness.js";
import { type Expectations, fillCommunity } from "../../test/import-fixtures/data.js";
import { mysqlReachable, mysqlSource, pgSource, type SourceDb } from "../../test/import-fixtures/sources.js";
import { runServerCli } from "../../test/server-cli.js";
import { type Database, openDatabase } from "../db/client.js";
import type { ImportReport } from "./importer.js";

/** `npm run import -- …` as the workspace runs it. `onOutput` may kill the child (a real interruption). */
const cli = (args: string[], env: Record<string, string>, onOutput?: Parameters<typeof runServerCli>[3]) =>
  runServerCli("src/import/cli.ts", args, env, onOutput);

const count = async (db: Database, sql: string) => Number(((await db.query<{ n: string }>(sql))[0] as { n: string }).n);
const mysqlUp = await mysqlReachable();

describe.skipIf(!mysqlUp)("npm run import (the CLI, end to end)", () => {
  let src: SourceDb;
  let target: Database & { url: string; drop(): Promise<void> };
  let media: string;
  let dataDir: string;
  let expected: Expectations;
  let env: Record<string, string>;

  beforeAll(async () => {
    src = await mysqlSource("community.mysql.sql");
    media = await mkdtemp(join(tmpdir(), "whaticket-public-"));
    dataDir = await mkdtemp(join(tmpdir(), "zapdesk-data-"));
    expected = await fillCommunity(src, media, 300);
    target = await openTestDatabase();
    env = { DATA_DIR: dataDir, DATABASE_URL: target.url, INIT_CWD: dataDir };
  }, 180_000);
  afterAll(async () => {
    await src?.drop();
    await target?.drop();
    await rm(media, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses without --from, without confirmation off a terminal, and an unknown flavour name", async () => {
    const none = await cli([], env);
    expect(none.code).toBe(2);
    expect(none.output).toMatch(/--from <url> is required/);
    const unconfirmed = await cli(["--from", src.url], env);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.output).toMatch(/Found: Whaticket Community/);
    expect(unconfirmed.output).toMatch(/Pass --yes/);
    expect((await cli(["--from", src.url, "--flavour", "izing"], env)).code).toBe(2);
    expect(await count(target, "select count(*) as n from contacts")).toBe(0);
  }, 90_000);

  it("killed half-way (SIGKILL during the messages), a second run finishes the job without duplicates", async () => {
    const killed = await cli(["--from", src.url, "--media", media, "--yes", "--batch-size", "50"], env, (output, child) => {
      if (/messages\s+\d+ \/ /.test(output) && !child.killed) child.kill("SIGKILL");
    });
    expect(killed.signal).toBe("SIGKILL");
    const partial = await count(target, "select count(*) as n from messages");
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(expected.messages);

    const resumed = await cli(["--from", src.url, "--media", media, "--yes", "--batch-size", "50"], env);
    expect(resumed.output).toMatch(/The import is complete/);
    expect(resumed.code).toBe(0);
    expect(await count(target, "select count(*) as n from messages")).toBe(expected.messages);
    expect(await count(target, "select count(*) as n from contacts")).toBe(expected.contacts - expected.twins);
    expect(await count(target, "select count(*) as n from tickets")).toBe(expected.tickets);
    // The final report, also written as JSON beside the data.
    expect(resumed.output).toMatch(/messages\s+\d+\s+\d+\s+0\s+0\s+\d+/);
    expect(resumed.output).toMatch(/file not found in the old system/);
    const files = (await readdir(join(dataDir, "imports"))).filter((f) => f.endsWith(".json"));
    const report = JSON.parse(await readFile(join(dataDir, "imports", files.at(-1) as string), "utf8")) as ImportReport;
    expect(report.verification.complete).toBe(true);
    expect(report.entities.messages.already + report.entities.messages.imported).toBe(expected.messages);
    expect(report.entities.messages.already).toBe(partial);

    const dry = await cli(["--from", src.url, "--media", media, "--dry-run"], env);
    expect(dry.code).toBe(0);
    expect(dry.output).toMatch(/Dry run \(nothing written\)/);
  }, 180_000);
});

describe("npm run import refuses what it does not know", { timeout: 90_000 }, () => {
  it("an Izing database, with what was found, and exit code 2", async () => {
    const src = await pgSource("izing.pg.sql");
    const dataDir = await mkdtemp(join(tmpdir(), "zapdesk-data-"));
    const target = await openTestDatabase();
    try {
      const run = await cli(["--from", src.url, "--yes"], { DATA_DIR: dataDir, DATABASE_URL: target.url });
      expect(run.code).toBe(2);
      expect(run.output).toMatch(/Found: an Izing\/Whazing schema/);
      expect(run.output).toMatch(/Refused/);
    } finally {
      await src.drop();
      await target.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!mysqlUp)("npm run import into the embedded database (no DATABASE_URL)", { timeout: 240_000 }, () => {
  it("starts the embedded PostgreSQL of DATA_DIR, migrates it, imports, and the data is there afterwards", async () => {
    const src = await mysqlSource("community.mysql.sql");
    const media = await mkdtemp(join(tmpdir(), "whaticket-public-"));
    const dataDir = await mkdtemp(join(tmpdir(), "zapdesk-data-"));
    try {
      const x = await fillCommunity(src, media, 40);
      const run = await cli(["--from", src.url, "--media", media, "--yes"], { DATA_DIR: dataDir, DATABASE_URL: "" });
      expect(run.output).toMatch(/The import is complete/);
      expect(run.code).toBe(0);
      const database = await openDatabase({ dataDir, poolSize: 1 });
      try {
        expect(await count(database, "select count(*) as n from messages")).toBe(x.messages);
        expect(await count(database, "select count(*) as n from messages where media_path is not null")).toBe(x.presentMedia);
      } finally {
        await database.close();
      }
    } finally {
      await src.drop();
      await rm(media, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
