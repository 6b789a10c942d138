import { mkdtemp, rm } from "node:fs/promises";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/harness.js";
import { type Database, HEAVY_READ_APPLICATION, HEAVY_READ_NICE, openDatabase } from "./client.js";
import { pgdataOf } from "./embedded/embedded-postgres.js";
import { postmasterPidOf } from "./embedded/holder.js";

/** The backend pids of the heavy-read pool and of the main pool, as PostgreSQL lists them. */
async function backends(database: Database) {
  // Each pool keeps its connection open, idle, after the query: pg_stat_activity still lists it.
  type Row = { pid: number; parallel: string };
  const heavy = (await database.heavy.execute(
    sql`select pg_backend_pid() as pid, current_setting('max_parallel_workers_per_gather') as parallel`,
  )) as unknown as { rows: Row[] };
  const main = await database.query<Row>(
    "select pg_backend_pid() as pid, current_setting('max_parallel_workers_per_gather') as parallel",
  );
  const named = await database.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [
    HEAVY_READ_APPLICATION,
  ]);
  return { heavy: heavy.rows[0]!, main: main[0]!, named: named.map((r) => r.pid) };
}

describe("the heavy-read pool (issue 19: one user's search does not take the machine)", () => {
  let dataDir: string;
  let embedded: Database;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "zapdesk-heavy-"));
    embedded = await openDatabase({ dataDir, poolSize: 2 });
  }, 120_000);
  afterAll(async () => {
    await embedded?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("embedded: its backends run niced and without parallel workers; the main pool's keep their priority", async () => {
    const { heavy, main, named } = await backends(embedded);
    expect(named).toContain(heavy.pid);
    expect(getPriority(heavy.pid)).toBe(HEAVY_READ_NICE);
    expect(heavy.parallel).toBe("0");
    // The main pool's backends keep the priority every backend gets from the postmaster.
    expect(getPriority(main.pid)).toBe(getPriority(postmasterPidOf(pgdataOf(dataDir))!));
    expect(getPriority(main.pid)).toBeLessThan(HEAVY_READ_NICE);
    expect(main.parallel).not.toBe("0");
  });

  it("on a PostgreSQL server: no parallel workers either, and no process of the server is touched", async () => {
    const server = await openTestDatabase();
    try {
      const { heavy } = await backends(server);
      expect(heavy.parallel).toBe("0");
    } finally {
      await server.close();
      await server.drop();
    }
  });
});
