import { hostname } from "node:os";
import type pg from "pg";
import { isAlive } from "../src/db/embedded/holder.js";

/** Every test run's databases are named `zapdesk_<kind>_<run id>[_…]` (global-setup.ts, harness.ts). */
const TEMPLATE = "zapdesk_tpl_";

/** Marks a run's template database with the process that owns the run, for `dropAbandonedDatabases`. */
export async function claimTemplate(client: pg.Client, template: string): Promise<void> {
  const owner = `zapdesk-test ${hostname()} ${process.pid}`;
  await client.query(`comment on database ${client.escapeIdentifier(template)} is ${client.escapeLiteral(owner)}`);
}

/**
 * The databases of this machine's runs that were killed before their teardown, on a server the
 * runs share (TEST_DATABASE_URL): a run's template names the process that owned it, and a run
 * whose process is gone loses its template and every database cloned from it. Another machine's
 * runs, and databases that are not a run's, are left alone. Returns the names dropped.
 */
export async function dropAbandonedDatabases(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ datname: string; owner: string | null }>(
    `select datname, shobj_description(oid, 'pg_database') as owner from pg_database where starts_with(datname, $1)`,
    [TEMPLATE],
  );
  const dropped: string[] = [];
  for (const { datname, owner } of rows) {
    const [mark, host, pid] = owner?.split(" ") ?? [];
    if (mark !== "zapdesk-test" || host !== hostname() || isAlive(Number(pid))) continue;
    const run = datname.slice(TEMPLATE.length);
    const { rows: ofRun } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname ~ $1 order by datname = $2`,
      [`^zapdesk_[a-z]+_${run}(_|$)`, datname],
    );
    // The clones first, the template last: a run found again later still has its mark.
    for (const { datname: name } of ofRun) {
      await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
      dropped.push(name);
    }
  }
  return dropped;
}
