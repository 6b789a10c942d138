import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import type { Plan } from "./explain.js";
import type { FanoutResult } from "./fanout.js";
import type { IngestResult } from "./ingest.js";
import type { LoadResult } from "./load.js";
import type { MixedResult } from "./mixed.js";
import type { IngestCheck, ReadyInfo } from "./protocol.js";
import type { StallResult } from "./stall.js";
import type { Summary } from "./stats.js";

export interface EngineReport {
  info: ReadyInfo;
  scale: number;
  load: LoadResult[];
  /** Issue 19: the inbox beside a heavy user (absent from older results). */
  mixed?: MixedResult[];
  /** Issue 19: /api/health beside one heavy request at a time (absent from older results). */
  stall?: StallResult[];
  ingest: { path: string; result: IngestResult; check: IngestCheck }[];
  /** Realtime fan-out, one entry per number of sockets (absent from older results). */
  fanout?: FanoutResult[];
  plans: Plan[];
  loadAverage: { before: number[]; after: number[] };
  startedAt: string;
  seconds: number;
}

/** p95 targets (ms) at concurrency 10, and ingest targets (msg/s) per engine. */
export const TARGETS = {
  p95: { inbox: 50, search: 100, chat: 30 } as Record<string, number>,
  ingest: { postgres: 1_500, embedded: 1_500 } as Record<string, number>,
  /** Issue 19, on the embedded default: the inbox's p95 at c=10 beside a heavy user, and the longest /api/health stall. */
  mixed: { inboxP95: 100, healthMax: 50 },
};

export function machine() {
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    nproc: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    loadAverage: loadavg().map((v) => Math.round(v * 100) / 100),
  };
}

const fmt = (n: number) => n.toLocaleString("en-US");
const verdict = (ok: boolean) => (ok ? "**met**" : "**missed**");
const cpu = (r: Summary) => (r.cpuPerOp ? `${r.cpuPerOp.server} · ${r.cpuPerOp.db} · ${r.cpuPerOp.client}` : "");
const trips = (r: Summary) => (r.cpuPerOp?.queries ? String(r.cpuPerOp.queries) : "–");

export function renderEngine(report: EngineReport): string {
  const { info } = report;
  const name = info.engine === "postgres" ? "PostgreSQL (server)" : "Embedded PostgreSQL (npm start)";
  const c = info.data.counts;
  const lines = [
    `### ${name} — scale ${report.scale}`,
    "",
    `- Server: ${info.serverVersion.split(",")[0]}; run started ${report.startedAt}, took ${Math.round(report.seconds)} s.`,
    `- Data set: ${fmt(c.contacts)} contacts; ${fmt(c.tickets)} tickets (${fmt(c.pending)} pending, ${fmt(c.open)} open, ` +
      `${fmt(c.closed)} closed, ${fmt(c.withoutQueue)} without queue); ${fmt(c.messages)} messages (bodies ${c.minBody}–${c.maxBody} ` +
      `chars, probe word in ${fmt(c.probeBodies)} bodies of ${fmt(c.probeTickets)} tickets, hot ticket #${info.data.hotTicketIds[0]} holds ${fmt(c.hotTicketMessages)}); ` +
      `lastMessage inconsistent on ${c.inconsistentLastMessage} tickets.`,
    `- Generated in ${(info.generateMs / 1000).toFixed(1)} s (${Object.entries(info.data.timingsMs)
      .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`)
      .join(", ")}).`,
    `- Load average (1/5/15 min) before: ${report.loadAverage.before.join(" / ")}, after: ${report.loadAverage.after.join(" / ")}.`,
    "",
    "| scenario | concurrency | requests | errors | req/s | p50 ms | p95 ms | p99 ms | max ms | CPU ms/req (server · db · client) | SQL/req | target (p95, c=10) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|",
  ];
  for (const r of report.load) {
    const limit = TARGETS.p95[r.scenario];
    const target =
      limit === undefined || r.concurrency !== 10 ? "" : `≤ ${limit} ms: ${verdict(r.p95 <= limit && r.errors === 0)}`;
    lines.push(
      `| ${r.scenario} | ${r.concurrency} | ${fmt(r.count)} | ${r.errors} | ${r.rate} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} | ${cpu(r)} | ${trips(r)} | ${target} |`,
    );
  }
  if (report.mixed?.length) {
    lines.push(
      "",
      "| inbox at c=10 beside | inbox requests | errors | p50 ms | p95 ms | p99 ms | heavy operations (count · p50 · max ms) | /api/health every 25 ms (p50 · p99 · max ms) | server's longest event-loop stall ms | CPU ms/inbox request (server · db · client) | target |",
      "|---|---:|---:|---:|---:|---:|---|---|---:|---|---|",
    );
    for (const r of report.mixed) {
      // The inbox's p95 beside the heavy user, and the longest time one piece of work held the
      // server's thread. The probe's answers are shown, but here they also queue behind ten inbox
      // requests on two shared cores; "no single request stalls /api/health" is judged by the
      // stall table below, where one heavy request at a time runs beside the probe.
      const stall = r.serverStallMs ?? 0;
      const met = r.p95 <= TARGETS.mixed.inboxP95 && stall <= TARGETS.mixed.healthMax && r.errors === 0 && r.heavy.errors === 0;
      lines.push(
        `| ${r.background} | ${fmt(r.count)} | ${r.errors + r.heavy.errors} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.heavy.count} · ${r.heavy.p50} · ${r.heavy.max} | ${r.health.p50} · ${r.health.p99} · ${r.health.max} | ${r.serverStallMs ?? "–"} | ${cpu(r)} | p95 ≤ ${TARGETS.mixed.inboxP95}, stall ≤ ${TARGETS.mixed.healthMax} ms: ${verdict(met)} |`,
      );
    }
  }
  if (report.stall?.length) {
    lines.push(
      "",
      "| /api/health every 25 ms beside one request at a time | probes | p50 ms | p99 ms | max ms | heavy requests (count · errors · p50 · max ms) | server's longest event-loop stall ms | target |",
      "|---|---:|---:|---:|---:|---|---:|---|",
    );
    for (const r of report.stall) {
      const met = r.max <= TARGETS.mixed.healthMax && r.heavy.errors === 0;
      lines.push(
        `| ${r.background} | ${fmt(r.count)} | ${r.p50} | ${r.p99} | ${r.max} | ${r.heavy.count} · ${r.heavy.errors} · ${r.heavy.p50} · ${r.heavy.max} | ${r.serverStallMs ?? "–"} | max ≤ ${TARGETS.mixed.healthMax} ms: ${verdict(met)} |`,
      );
    }
  }
  lines.push(
    "",
    "| ingest path | messages | customers | errors | msg/s | p50 ms | p95 ms | p99 ms | max ms | CPU ms/msg (server · db · client) | SQL/msg | stored check | target |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|",
  );
  const goal = TARGETS.ingest[info.engine];
  for (const { path, result: r, check } of report.ingest) {
    const stored = `${check.messages} msgs, ${check.tickets} tickets / ${check.contacts} customers`;
    lines.push(
      `| ${path} | ${fmt(r.count)} | ${r.contacts} | ${r.errors} | ${r.rate} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} | ${cpu(r)} | ${trips(r)} | ${stored} | ≥ ${fmt(goal)} msg/s: ${verdict(r.rate >= goal && r.errors === 0)} |`,
    );
  }
  if (report.fanout?.length) {
    lines.push(
      "",
      "| realtime fan-out: sockets | inbound messages | deliveries | errors | stored and published, p50 · p99 ms | delivered p50 ms | p99 ms | max ms | CPU ms/message (server · db · client) |",
      "|---:|---:|---:|---:|---|---:|---:|---:|---|",
    );
    for (const r of report.fanout) {
      // CPU per message, not per delivery: withCpu divided by the deliveries.
      const perMessage = (ms: number) => Math.round(((ms * r.count) / Math.max(1, r.messages)) * 100) / 100;
      const c = r.cpuPerOp;
      const cost = c ? `${perMessage(c.server)} · ${perMessage(c.db)} · ${perMessage(c.client)}` : "";
      const stored = r.stored ? `${r.stored.p50} · ${r.stored.p99}` : "";
      lines.push(
        `| ${r.sockets} | ${r.messages} | ${fmt(r.count)} | ${r.errors} | ${stored} | ${r.p50} | ${r.p99} | ${r.max} | ${cost} |`,
      );
    }
  }
  lines.push("", "EXPLAIN ANALYZE execution time of each statement (one run, warm cache):", "");
  lines.push(report.plans.map((p) => `${p.name} ${p.executionMs.toFixed(1)} ms`).join(" · "), "");
  return lines.join("\n");
}

const BEGIN = "<!-- bench:results:begin (written by npm run bench) -->";
const END = "<!-- bench:results:end -->";

/** Replace the generated section of docs/benchmarks.md, leaving the hand-written analysis around it alone. */
export function writeDoc(path: string, reports: EngineReport[], extra: string[] = []) {
  const m = machine();
  const generated = [
    BEGIN,
    "",
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${m.nproc} × ${m.cpu}, ${m.memoryGiB} GiB RAM, ` +
      `Node ${m.node}.`,
    "",
    ...reports.map(renderEngine),
    ...extra,
    END,
  ].join("\n");
  const current = existsSync(path) ? readFileSync(path, "utf8") : `# Benchmarks\n\n${BEGIN}\n${END}\n`;
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + generated + current.slice(end + END.length)
      : `${current.trimEnd()}\n\n${generated}\n`;
  writeFileSync(path, next);
}
