/**
 * `npx tsx bench/import.ts`: how fast `npm run import` moves a Ticketz database into Zapdesk on
 * PostgreSQL. Builds a source (the test fixture's Ticketz schema) with generate_series on a PostgreSQL
 * server, migrates a fresh target database beside it, runs the importer, prints the time and rate
 * per entity, the process's peak RSS and the CPU time spent by this process and by the PostgreSQL
 * backends serving the two databases (read from /proc every second: on a shared machine the
 * wall-clock time follows the load average, the CPU time much less), and drops both databases.
 *
 * Env: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_IMPORT_CONTACTS
 * (20000), BENCH_IMPORT_TICKETS (50000), BENCH_IMPORT_MESSAGES (500000), BENCH_IMPORT_BATCH (1000).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openDatabase } from "../packages/server/src/db/client.js";
import { migrate } from "../packages/server/src/db/migrate.js";
import { type Entity, runImport } from "../packages/server/src/import/importer.js";
import { openSource } from "../packages/server/src/import/source.js";

const here = dirname(fileURLToPath(import.meta.url));
const server = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const contacts = Number(process.env.BENCH_IMPORT_CONTACTS ?? 20_000);
const tickets = Number(process.env.BENCH_IMPORT_TICKETS ?? 50_000);
const messages = Number(process.env.BENCH_IMPORT_MESSAGES ?? 500_000);
const batchSize = Number(process.env.BENCH_IMPORT_BATCH ?? 1000);

const withDb = (name: string) => {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
};
const id = randomBytes(3).toString("hex");
const sourceName = `zapdesk_bench_src_${id}`;
const targetName = `zapdesk_bench_dst_${id}`;

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: server });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** CPU seconds (user + system) of a process, from /proc (Linux; 0 when unreadable). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

async function main() {
  await admin(`create database ${sourceName}`);
  await admin(`create database ${targetName}`);
  try {
    const src = new pg.Client({ connectionString: withDb(sourceName) });
    await src.connect();
    await src.query(readFileSync(join(here, "../packages/server/test/import-fixtures/ticketz.pg.sql"), "utf8"));
    let t = Date.now();
    await src.query(`insert into "Companies" ("id", "name") values (1, 'Bench');
      insert into "Users" ("id", "companyId", "name", "email", "passwordHash", "profile")
        select g, 1, 'Agent ' || g, 'agent' || g || '@bench.test', '$2a$08$abcdefghijklmnopqrstuv', 'user' from generate_series(1, 20) g;
      insert into "Whatsapps" ("id", "companyId", "name", "isDefault") values (1, 1, 'Bench', true);
      insert into "Queues" ("id", "companyId", "name", "color") values (1, 1, 'Bench', '#123456');
      insert into "Contacts" ("id", "companyId", "name", "number")
        select g, 1, 'Cliente ' || g, (5511900000000 + g)::text from generate_series(1, ${contacts}) g;
      insert into "Tickets" ("id", "companyId", "status", "contactId", "userId", "whatsappId", "queueId", "lastMessage", "createdAt", "updatedAt")
        select g, 1, 'closed', 1 + (g % ${contacts}), 1 + (g % 20), 1, 1, 'fim', now() - interval '30 days', now() - interval '29 days'
        from generate_series(1, ${tickets}) g;
      insert into "Messages" ("id", "companyId", "ticketId", "contactId", "body", "fromMe", "read", "ack", "mediaType", "dataJson", "createdAt", "updatedAt")
        select 'BAE5' || lpad(to_hex(g), 12, '0'), 1, 1 + (g % ${tickets}), 1 + ((g % ${tickets}) % ${contacts}),
          'Mensagem número ' || g || ' com acentuação e emoji 😀', g % 2 = 0, true, case when g % 2 = 0 then 4 else 0 end, 'conversation',
          '{"messageTimestamp":' || (1700000000 + g) || '}', now(), now()
        from generate_series(1, ${messages}) g;`);
    await src.end();
    console.log(
      `source built in ${((Date.now() - t) / 1000).toFixed(1)} s: ${contacts} contacts, ${tickets} tickets, ${messages} messages`,
    );

    const database = await openDatabase({ url: withDb(targetName), poolSize: 2 });
    await migrate(database);
    const source = await openSource(withDb(sourceName));
    const spans = new Map<Entity, { start: number; end: number; rows: number }>();
    let peakRss = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 200);
    // Each backend's CPU so far, per database: the last reading of every pid that served it.
    const backends = new Map<number, { db: string; cpu: number }>();
    const watcher = new pg.Client({ connectionString: server });
    await watcher.connect();
    const readBackends = async () => {
      const { rows } = await watcher.query<{ pid: number; datname: string }>(
        "select pid, datname from pg_stat_activity where datname = any($1)",
        [[sourceName, targetName]],
      );
      for (const r of rows) backends.set(r.pid, { db: r.datname, cpu: await cpuSeconds(r.pid) });
    };
    const cpuWatch = setInterval(() => void readBackends().catch(() => {}), 1000);
    const nodeCpu = process.cpuUsage();
    t = Date.now();
    let last = t;
    const report = await runImport({
      source,
      flavour: "ticketz",
      database,
      batchSize,
      onProgress: (p) => {
        const now = Date.now();
        const span = spans.get(p.entity) ?? { start: last, end: now, rows: 0 };
        span.end = now;
        span.rows = p.done;
        spans.set(p.entity, span);
        last = now;
      },
    });
    clearInterval(sampler);
    clearInterval(cpuWatch);
    await readBackends();
    await watcher.end();
    const total = (Date.now() - t) / 1000;
    const node = process.cpuUsage(nodeCpu);
    const cpuOf = (db: string) => [...backends.values()].filter((b) => b.db === db).reduce((sum, b) => sum + b.cpu, 0);
    for (const [entity, span] of spans) {
      const seconds = (span.end - span.start) / 1000;
      console.log(
        `${entity.padEnd(16)} ${String(span.rows).padStart(8)} rows ${seconds.toFixed(1).padStart(7)} s ${Math.round(
          span.rows / Math.max(seconds, 0.001),
        )
          .toString()
          .padStart(8)} rows/s`,
      );
    }
    console.log(
      `total ${total.toFixed(1)} s, complete: ${report.verification.complete}, peak RSS ${Math.round(peakRss / 1e6)} MB`,
    );
    console.log(
      `CPU: importer (node) ${((node.user + node.system) / 1e6).toFixed(1)} s, target database ${cpuOf(targetName).toFixed(1)} s, source database ${cpuOf(sourceName).toFixed(1)} s; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    await source.close();
    await database.close();
  } finally {
    await admin(`drop database if exists ${sourceName} with (force)`);
    await admin(`drop database if exists ${targetName} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
