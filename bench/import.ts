/**
 * `npx tsx bench/import.ts`: how fast `npm run import` moves a Ticketz database into Zapdesk on
 * PostgreSQL. Builds a source (the test fixture's Ticketz schema) with generate_series on a PostgreSQL
 * server, migrates a fresh target database beside it, runs the importer, prints the time and rate
 * per entity and the process's peak RSS, and drops both databases.
 *
 * Env: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_IMPORT_CONTACTS
 * (20000), BENCH_IMPORT_TICKETS (50000), BENCH_IMPORT_MESSAGES (500000), BENCH_IMPORT_BATCH (1000).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
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
    const total = (Date.now() - t) / 1000;
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
