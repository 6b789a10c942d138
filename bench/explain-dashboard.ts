/**
 * `npx tsx bench/explain-dashboard.ts`: the dashboard's queries at full scale (issue 13 item 6).
 * A fresh PostgreSQL database (BENCH_PG_URL) gets the migrations, the seed and the bench data set
 * (BENCH_SCALE, default 1: 50k tickets, 500k messages); then each dashboard call runs in-process
 * (the server's own functions, as the admin and as an agent), 5 times after one warm-up, reporting
 * the median wall time and this process's CPU; the metrics statement's EXPLAIN ANALYZE is printed
 * with JIT on (the stock setting) and off. The database is dropped at the end.
 */
import { randomBytes } from "node:crypto";
import type { SQL } from "drizzle-orm";
import { seed } from "../packages/server/src/db/seed.js";
import { dashboardFigures } from "../packages/server/src/modules/dashboard/dashboard.repo.js";
import { aggregateMetricsSql, metricsWhere } from "../packages/server/src/modules/dashboard/metrics.repo.js";
import { createMetricsService } from "../packages/server/src/modules/dashboard/metrics.service.js";
import { waitingFigures } from "../packages/server/src/modules/dashboard/waiting.js";
import { ticketListWhere } from "../packages/server/src/modules/tickets/ticket-list.repo.js";
import { generate } from "./generate.js";
import { withScratchDatabase } from "./scratch-db.js";

const scale = Number(process.env.BENCH_SCALE ?? 1);
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const month = new Date().toISOString().slice(0, 7);

async function time(label: string, work: () => Promise<unknown>) {
  await work();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < 5; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await work();
    walls.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2].toFixed(1);
  console.log(`| ${label} | ${median(walls)} | ${median(cpus)} |`);
}

async function main() {
  await withScratchDatabase("zapdesk_dashboard", { poolSize: 2 }, async (database) => {
    await seed(database.db, { email: "admin@bench.test", password: randomBytes(9).toString("hex"), name: "Bench admin" });
    const data = await generate(database, scale);
    await database.exec("vacuum analyze");
    const { db } = database;
    const clock = { now: () => new Date() };
    const metrics = createMetricsService({ db, clock });
    const adminUser = { id: data.adminId, name: "Bench admin", email: "", profile: "admin", queueIds: [] };
    const agentUser = { id: data.agentIds[0], name: "Agent", email: "", profile: "user", queueIds: data.queueIds.slice(0, 2) };
    const access = (user: typeof adminUser) =>
      ticketListWhere({ actor: { id: user.id, admin: user.profile === "admin", queueIds: user.queueIds }, showAll: true });
    const tz = "America/Sao_Paulo";

    console.log("| call | wall ms (median of 5) | Node CPU ms |\n|---|---:|---:|");
    await time("GET /dashboard figures (counts, 4 charts), admin", () =>
      dashboardFigures(db, { access: access(adminUser), tz, now: new Date(), month }),
    );
    await time("GET /dashboard waiting card, admin", () => waitingFigures(db, { access: access(adminUser), tz, month }));
    await time("GET /dashboard/metrics 30 days, admin", () => metrics(adminUser, { from: day(29), to: day(0), tz }));
    await time("GET /dashboard/metrics 365 days, admin", () => metrics(adminUser, { from: day(364), to: day(0), tz }));
    await time("GET /dashboard/metrics 30 days, agent", () => metrics(agentUser, { from: day(29), to: day(0), tz }));
    await time("GET /dashboard/metrics 30 days, one queue", () =>
      metrics(adminUser, { from: day(29), to: day(0), tz, queueId: data.queueIds[0] }),
    );

    const dialect = (db as unknown as { dialect: { sqlToQuery(s: SQL): { sql: string; params: unknown[] } } }).dialect;
    for (const days of [30, 365]) {
      const statement = dialect.sqlToQuery(
        aggregateMetricsSql(metricsWhere({ access: undefined, tz, from: day(days - 1), to: day(0) }), tz),
      );
      for (const jit of ["on", "off"]) {
        await database.exec(`set jit = ${jit}`);
        let plan = "";
        for (let i = 0; i < 3; i++) {
          const rows = await database.query<{ "QUERY PLAN": string }>(
            `explain (analyze, buffers) ${statement.sql}`,
            statement.params,
          );
          plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
        }
        console.log(`\n## metrics statement, ${days} days, jit ${jit}\n${plan}`);
      }
    }
  });
}

await main();
