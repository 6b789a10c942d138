import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { claimTemplate, dropAbandonedDatabases } from "./abandoned-databases.js";

/**
 * A run killed before its teardown left its databases on a shared server (TEST_DATABASE_URL) for
 * good. The next run drops those of runs whose process is gone, from this machine, and nothing else.
 */
const admin = new pg.Client({ connectionString: inject("pgServerUrl") });
const made: string[] = [];
beforeAll(() => admin.connect());
afterAll(async () => {
  for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

const runId = () => `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
async function database(name: string, owner?: string) {
  made.push(name);
  await admin.query(`create database ${name}`);
  if (owner) await admin.query(`comment on database ${name} is '${owner}'`);
}
const existing = async (names: string[]) =>
  (await admin.query<{ datname: string }>("select datname from pg_database where datname = any($1)", [names])).rows
    .map((r) => r.datname)
    .sort();

describe("the databases of killed test runs (abandoned-databases.ts)", () => {
  it("drops a dead run's template and clones, keeps a live run's, another machine's and others'", async () => {
    // A process that has ended: its pid is free (the kernel does not hand it out again at once).
    const ended = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    const host = hostname();
    const [dead, live, remote, unmarked] = [runId(), runId(), runId(), runId()];
    const deadOnes = [`zapdesk_tpl_${dead}`, `zapdesk_t_${dead}_ab12cd34`, `zapdesk_src_${dead}_ef56ab78`];
    await database(deadOnes[0]!, `zapdesk-test ${host} ${ended}`);
    await database(deadOnes[1]!);
    await database(deadOnes[2]!);
    await database(`zapdesk_tpl_${live}`);
    await claimTemplate(admin, `zapdesk_tpl_${live}`);
    await database(`zapdesk_t_${live}_ab12cd34`);
    await database(`zapdesk_tpl_${remote}`, `zapdesk-test elsewhere-${host} ${ended}`);
    await database(`zapdesk_tpl_${unmarked}`);
    // A name that only begins like the dead run's.
    await database(`zapdesk_t_${dead}x_ab12cd34`);

    const dropped = await dropAbandonedDatabases(admin);

    expect(dropped.filter((name) => name.includes(dead)).sort()).toEqual([...deadOnes].sort());
    expect(await existing(made)).toEqual(
      [
        `zapdesk_tpl_${live}`,
        `zapdesk_t_${live}_ab12cd34`,
        `zapdesk_tpl_${remote}`,
        `zapdesk_tpl_${unmarked}`,
        `zapdesk_t_${dead}x_ab12cd34`,
      ].sort(),
    );
  });
});
