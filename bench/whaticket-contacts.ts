/**
 * `npx tsx bench/whaticket-contacts.ts`: issue 24 target 3's "contact search ≥ 3× Whaticket at c=1
 * and c=10", measured against a floor of Whaticket rather than Whaticket itself, which cannot be
 * installed here (no GitHub). The floor is Whaticket's own SQL for a contact search, with none of
 * its Node work: whatever Express, its JWT check and Sequelize add can only make Whaticket slower,
 * so Zapdesk at 3× this floor is at least 3× Whaticket. A ratio under 3 says nothing either way.
 *
 * - Zapdesk: the real app (bench/app-config.ts) on a scratch database with the bench's data set at
 *   BENCH_SCALE (default 1: 20k contacts, 50k tickets, 500k messages), `GET /api/contacts?searchParam=`
 *   over HTTP, one agent of the bench's crowd per worker, as `npm run bench`'s "contacts" scenario.
 * - Whaticket's floor: its `Contacts` table as its migrations create it on PostgreSQL (an `id`
 *   serial, `name` and `number` varchar(255), `number` unique, `profilePicUrl`, `email` default '',
 *   `isGroup`, `createdAt`/`updatedAt` timestamptz; no other index) in the same database, holding the
 *   same contacts. A search is what Whaticket Community's `ListContactsService` asks through
 *   Sequelize's `findAndCountAll`: a `count(*)` and a page of 20 by `createdAt` desc, both with
 *   `LOWER("name") LIKE '%term%' OR "number" LIKE '%term%'` and the values written into the text,
 *   sent at the same time on two connections. Its pool here has two connections per worker, never a
 *   queue (Sequelize's default pool has 5 in all).
 * - Both from one client process of their own, closed loops of 1 and 10 workers, BENCH_WT_SECONDS
 *   (default 15) each; the database's CPU per search from its backends (bench/cpu.ts), the Zapdesk
 *   server's from its process (Whaticket's is 0 by construction).
 * - Twice: with the statistics fresh (after the data set's ANALYZE), and after BENCH_CONTACT_BURST
 *   (default 2,700) new customers in both tables with autovacuum off (statistics stale), the case
 *   where Zapdesk's count fell to a full scan before migration 0040.
 */
import pg from "pg";
import type { Database } from "../packages/server/src/db/client.js";
import { CONTACT_TERM } from "./corpus.js";
import { cpuSampler } from "./cpu.js";
import { withInProcessApp } from "./in-process-app.js";
import { call, target } from "./load.js";
import { benchPgUrl } from "./scratch-db.js";
import { closedLoop, type Summary, summarize } from "./stats.js";

interface Job {
  kind: "zapdesk" | "whaticket";
  workers: number;
  seconds: number;
  port?: number;
  tokens?: string[];
  url?: string;
}

interface Done {
  latencies: number[];
  errors: number;
  seconds: number;
  /** The matches the last answer counted. */
  count: number;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** Whaticket Community's ListContactsService through Sequelize 5's findAndCountAll, as PostgreSQL receives it. */
function whaticketStatements(term: string): [string, string] {
  const where = `WHERE (LOWER("name") LIKE ${literal(`%${term.toLowerCase()}%`)} OR "Contact"."number" LIKE ${literal(`%${term}%`)})`;
  return [
    `SELECT count(*) AS "count" FROM "Contacts" AS "Contact" ${where};`,
    `SELECT "id", "name", "number", "email", "profilePicUrl", "isGroup", "createdAt", "updatedAt" FROM "Contacts" AS "Contact" ${where} ORDER BY "Contact"."createdAt" DESC LIMIT 20 OFFSET 0;`,
  ];
}

/**
 * The client's side: one job at a time, closed loops for `seconds`. Whaticket's pool is opened
 * before the job's first CPU sample (`open`) and ended after its last (`close`): the sampler reads
 * the CPU of the backends connected when it samples (bench/cpu.ts).
 */
async function client() {
  let pool: pg.Pool | undefined;
  process.on("message", async (job: Job & { phase: "open" | "run" | "close" }) => {
    if (job.phase === "open") {
      if (job.kind === "whaticket") {
        pool = new pg.Pool({ connectionString: job.url, max: 2 * job.workers });
        // Connections opened before the clock starts, as a running Whaticket's pool holds them.
        await Promise.all(Array.from({ length: 2 * job.workers }, () => (pool as pg.Pool).query("select 1")));
      }
      process.send?.({ latencies: [], errors: 0, seconds: 0, count: 0 } satisfies Done);
      return;
    }
    if (job.phase === "close") {
      await pool?.end();
      pool = undefined;
      process.send?.({ latencies: [], errors: 0, seconds: 0, count: 0 } satisfies Done);
      return;
    }
    const latencies: number[] = [];
    let errors = 0;
    let count = 0;
    const started = performance.now();
    const stop = () => performance.now() - started >= job.seconds * 1000;
    if (job.kind === "zapdesk") {
      const http = target(job.port as number, job.workers);
      const tokens = job.tokens as string[];
      await closedLoop(job.workers, stop, async (worker) => {
        const at = performance.now();
        const answer = await call(http, "GET", `/api/contacts?searchParam=${CONTACT_TERM}`, tokens[worker % tokens.length]);
        const body = answer.status === 200 ? (JSON.parse(answer.body) as { contacts: unknown[]; count: number }) : null;
        if (!body || body.contacts.length === 0) errors += 1;
        else {
          latencies.push(performance.now() - at);
          count = body.count;
        }
      });
      http.agent.destroy();
    } else {
      const open = pool as pg.Pool;
      const [countSql, pageSql] = whaticketStatements(CONTACT_TERM);
      await closedLoop(job.workers, stop, async () => {
        const at = performance.now();
        const [counted, page] = await Promise.all([open.query(countSql), open.query(pageSql)]);
        if (page.rows.length === 0) errors += 1;
        else {
          latencies.push(performance.now() - at);
          count = Number(counted.rows[0].count);
        }
      });
    }
    process.send?.({ latencies, errors, seconds: (performance.now() - started) / 1000, count } satisfies Done);
  });
}

async function main() {
  const scale = Number(process.env.BENCH_SCALE ?? "1");
  const seconds = Number(process.env.BENCH_WT_SECONDS ?? "15");
  const burst = Number(process.env.BENCH_CONTACT_BURST ?? "2700");
  // Whaticket's Contacts table (its migrations create-contacts, add-email-field-to-contacts and
  // add-isGroup-column-to-contacts, as Sequelize renders them for PostgreSQL), with Zapdesk's contacts.
  const whaticketTable = async (database: Database) => {
    await database.exec(`create table "Contacts" ("id" serial, "name" varchar(255) not null,
      "number" varchar(255) not null unique, "profilePicUrl" varchar(255),
      "createdAt" timestamptz not null, "updatedAt" timestamptz not null, primary key ("id"))`);
    await database.exec(`alter table "Contacts" add column "email" varchar(255) not null default ''`);
    await database.exec(`alter table "Contacts" add column "isGroup" boolean not null default false`);
    await database.exec(`insert into "Contacts" ("name", "number", "profilePicUrl", "email", "isGroup", "createdAt", "updatedAt")
      select name, number, profile_pic_url, coalesce(email, ''), is_group, created_at, updated_at from contacts order by id`);
    await database.exec(`analyze contacts; analyze "Contacts"`);
  };
  const prefix = "zapdesk_whaticket_contacts";
  await withInProcessApp(prefix, scale, import.meta.url, whaticketTable, async ({ database, data, handle, port, child }) => {
    const sample = cpuSampler(database);
    const [{ name }] = await database.query<{ name: string }>("select current_database() as name");
    const url = benchPgUrl();
    url.pathname = `/${name}`;
    const tokens = await Promise.all(data.crowd.agentIds.map((id) => handle.services.tokens.signAccess(id)));
    const ask = (job: Job, phase: "open" | "run" | "close") =>
      new Promise<Done>((resolve) => {
        child.once("message", (done) => resolve(done as Done));
        child.send({ ...job, phase });
      });
    const measure = async (job: Job) => {
      await ask(job, "open");
      const before = await sample();
      const done = await ask(job, "run");
      const after = await sample();
      await ask(job, "close");
      const summary: Summary = summarize(done.latencies, done.errors, done.seconds);
      const per = (ms: number) => ms / Math.max(1, summary.count);
      return { summary, count: done.count, server: per(after.nodeMs - before.nodeMs), db: per(after.dbMs - before.dbMs) };
    };
    const phase = async (state: string) => {
      for (const workers of [1, 10]) {
        const zapdesk = await measure({ kind: "zapdesk", workers, seconds, port, tokens });
        const floor = await measure({ kind: "whaticket", workers, seconds, url: url.toString() });
        const z = zapdesk.summary;
        const w = floor.summary;
        console.log(
          `| ${state} | ${workers} | ${z.rate} · ${z.p50} · ${z.p95} | ${zapdesk.server.toFixed(2)} · ${zapdesk.db.toFixed(2)} | ` +
            `${w.rate} · ${w.p50} · ${w.p95} | ${floor.db.toFixed(2)} | ` +
            `**${(z.rate / w.rate).toFixed(1)}×** · ${(w.p50 / z.p50).toFixed(1)}× · ${(w.p95 / z.p95).toFixed(1)}× | ` +
            `${zapdesk.count} · ${floor.count} | ${z.errors + w.errors} |`,
        );
      }
    };
    console.log(
      `scale ${scale}, "${CONTACT_TERM}", ${seconds} s a case; Zapdesk over HTTP against Whaticket's SQL alone (its floor)\n` +
        "| statistics | c | Zapdesk req/s · p50 · p95 ms | Zapdesk CPU ms/req server · db | Whaticket floor req/s · p50 · p95 ms | floor db CPU ms/req | Zapdesk ÷ floor: req/s · p50 · p95 | matches Zapdesk · Whaticket | errors |\n" +
        "|---|---:|---|---|---|---|---|---|---:|",
    );
    await phase("fresh (after ANALYZE)");
    // A burst of new customers before the next ANALYZE, in both tables (explain-contacts.ts's).
    await database.exec(`alter table contacts set (autovacuum_enabled = false)`);
    await database.exec(`alter table "Contacts" set (autovacuum_enabled = false)`);
    const first = data.sizes.contacts + 1_000_000;
    await database.exec(`insert into contacts (id, name, number)
        select ${first} + i, 'Customer ' || i, '5711' || lpad(i::text, 8, '0') from generate_series(1, ${burst}) i`);
    await database.exec(`insert into "Contacts" ("name", "number", "createdAt", "updatedAt")
        select 'Customer ' || i, '5711' || lpad(i::text, 8, '0'), now(), now() from generate_series(1, ${burst}) i`);
    await phase(`stale (${burst} new contacts, no ANALYZE)`);
  });
}

if (process.argv[2] === "client") await client();
else await main();
