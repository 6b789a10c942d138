/**
 * `npm run bench`: for each engine, start bench/server.ts on a fresh database (the embedded PostgreSQL in a temp
 * dir, or a uniquely named PostgreSQL database dropped afterwards), measure the read scenarios at
 * concurrency 1 and 10 over real HTTP on 127.0.0.1, then ingest bursts through the simulator
 * (over HTTP and straight into the hub), EXPLAIN ANALYZE the scenario queries, and write
 * bench/results/<engine>.json and the generated section of docs/benchmarks.md.
 *
 * Env: BENCH_SCALE (default 1), BENCH_SCALE_EMBEDDED / BENCH_SCALE_POSTGRES (per-engine override),
 * BENCH_ENGINES (default "postgres,embedded"), BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_REQUESTS (2000) and BENCH_SECONDS (15) per scenario and concurrency, BENCH_INGEST_MESSAGES (5000),
 * BENCH_INGEST_SECONDS (20), BENCH_INGEST_CONTACTS (10 customers writing at once), BENCH_INGEST_BURST (10); for investigations,
 * BENCH_SCENARIOS=inbox,chat (a subset; "mixed" is the inbox beside a dashboard, an export or a broad search (mixed.ts); "stall" is /api/health beside one heavy request at a time (stall.ts); "fanout" is the realtime fan-out, BENCH_FANOUT_SOCKETS (50,200,500) sockets,
 * BENCH_FANOUT_MESSAGES (20) inbound messages each), BENCH_INGEST=0 (skip ingest), BENCH_REPORT=0 (write no results), BENCH_PROPOSED_INDEXES=1 (see proposed.ts), BENCH_PUSH=1 (web push configured, see app-config.ts), BENCH_CPU_PROF=<dir> (server CPU profile);
 * BENCH_RULES=N enables N automation rules on inbound messages (issue 23 §1; text conditions, or BENCH_RULES_CONDITION=status for ticket conditions, =worker for ticket conditions on rules that move tickets (only the worker decides those); each ingest span ends by draining the rules' queue, so it includes the rules' worker's work for its own messages), BENCH_WEB=0 skips the web first load (bundle sizes and tickets-page TTI, see web.ts), BENCH_WEB_BUILD=0 measures the existing build, BENCH_TTI_RUNS (5).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { CONTACT_TERM, PROBE_WORD } from "./corpus.js";
import { type FanoutResult, runFanout } from "./fanout.js";
import { type IngestOptions, runIngest } from "./ingest.js";
import { type Bounds, call, runScenario, type Scenario, target, warmup } from "./load.js";
import { type MixedResult, runMixed } from "./mixed.js";
import type { Engine, FromServer, ReadyInfo, ToServer } from "./protocol.js";
import { type EngineReport, machine, renderEngine, writeDoc } from "./report.js";
import { runStall, STALL_BACKGROUNDS, type StallResult } from "./stall.js";
import { type Sampler, withCpu } from "./stats.js";
import { measureWeb, renderWeb, type WebReport } from "./web.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const num = (name: string, fallback: number) => Number(env(name, String(fallback)));

const engines = env("BENCH_ENGINES", "postgres,embedded").split(",") as Engine[];
const pgUrl = new URL(env("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres"));
const bounds: Bounds = { maxRequests: num("BENCH_REQUESTS", 2000), maxSeconds: num("BENCH_SECONDS", 15) };
const ingestBase = {
  parallelContacts: num("BENCH_INGEST_CONTACTS", 10),
  burst: num("BENCH_INGEST_BURST", 10),
  maxMessages: num("BENCH_INGEST_MESSAGES", 5000),
  maxSeconds: num("BENCH_INGEST_SECONDS", 20),
};
// The load is only ever aimed at this machine.
if (!["127.0.0.1", "localhost", "[::1]"].includes(pgUrl.hostname)) throw new Error("BENCH_PG_URL must point at loopback");

const loads = () => loadavg().map((v) => Math.round(v * 100) / 100);

/** The server process and a typed request/answer over its IPC channel. */
function startServer(engine: Engine, scale: number, dataDir: string, databaseUrl?: string) {
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", resolve(process.env.BENCH_CPU_PROF)] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, "--import", "tsx", join(ROOT, "bench/server.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      BENCH_ENGINE: engine,
      BENCH_SCALE: String(scale),
      BENCH_DATA_DIR: dataDir,
      BENCH_DATABASE_URL: databaseUrl ?? "",
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = <T extends FromServer["type"]>(type: T, timeoutMs: number) =>
    new Promise<Extract<FromServer, { type: T }>>((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error(`server: no "${type}" within ${timeoutMs} ms`)), timeoutMs);
      const onMessage = (message: FromServer) => {
        if (message.type !== type && message.type !== "error") return;
        cleanup();
        if (message.type === "error") reject(new Error(`server: ${message.message}`));
        else resolvePromise(message as Extract<FromServer, { type: T }>);
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`server exited (${code}) while waiting for "${type}"`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.off("message", onMessage);
        child.off("exit", onExit);
      };
      child.on("message", onMessage);
      child.on("exit", onExit);
    });
  const ask = <T extends FromServer["type"]>(message: ToServer, type: T, timeoutMs: number) => {
    const answer = next(type, timeoutMs);
    child.send(message);
    return answer;
  };
  return { child, next, ask };
}

type Server = ReturnType<typeof startServer>;

/** Bursts of inbound messages, first over HTTP (the simulator API), then straight into the hub. */
async function measureIngest(engine: Engine, info: ReadyInfo, server: Server, cpu: Sampler, ingest: EngineReport["ingest"]) {
  const digit = engine === "postgres" ? "1" : "2";
  const http = target(info.port, ingestBase.parallelContacts * ingestBase.burst);
  const viaHttp: IngestOptions = { ...ingestBase, numberPrefix: `57${digit}1` };
  const httpResult = await withCpu(cpu, async () => {
    const result = await runIngest(async (input) => {
      const res = await call(http, "POST", `/api/simulator/${info.data.ingestWhatsappId}/inbound`, info.tokens.admin, input);
      if (res.status !== 200) throw new Error(`${res.status} ${res.body.slice(0, 200)}`);
    }, viaHttp);
    // BENCH_RULES: the rules' work for these messages is theirs, inside this span (left for the
    // worker's next ticks, it was counted in the hub ingest's span that follows).
    await server.ask({ type: "drainRules" }, "drainRules", 5 * 60_000);
    return result;
  });
  http.agent.destroy();
  const httpCheck = (await server.ask({ type: "check", numberPrefix: viaHttp.numberPrefix }, "check", 60_000)).result;
  ingest.push({ path: "HTTP POST /api/simulator/:id/inbound", result: httpResult, check: httpCheck });
  const viaHub: IngestOptions = { ...ingestBase, numberPrefix: `57${digit}2` };
  const hubResult = (await server.ask({ type: "ingest", options: viaHub }, "ingest", 5 * 60_000)).result;
  const hubCheck = (await server.ask({ type: "check", numberPrefix: viaHub.numberPrefix }, "check", 60_000)).result;
  ingest.push({ path: "simulator hub (in-process, no HTTP)", result: hubResult, check: hubCheck });
  for (const { path, result } of ingest) {
    console.log(
      `[${engine}] ingest ${path}: ${result.rate} msg/s, p50 ${result.p50} p99 ${result.p99} ms, errors ${result.errors}`,
    );
  }
}

/** Inbound message to every agent socket, for each number of sockets. */
async function measureFanout(engine: Engine, info: ReadyInfo, cpu: Sampler, fanout: FanoutResult[]) {
  const digit = engine === "postgres" ? "1" : "2";
  const sizes = env("BENCH_FANOUT_SOCKETS", "50,200,500").split(",").map(Number);
  for (const [k, sockets] of sizes.entries()) {
    const result = await withCpu(cpu, () =>
      runFanout({
        port: info.port,
        whatsappId: info.data.ingestWhatsappId,
        adminToken: info.tokens.admin,
        agentTokens: info.tokens.queueAgents,
        sockets,
        messages: num("BENCH_FANOUT_MESSAGES", 20),
        numberPrefix: `57${digit}3${k}`,
      }),
    );
    console.log(
      `[${engine}] fanout ${sockets} sockets: stored p50 ${result.stored.p50}, delivered p50 ${result.p50} p99 ${result.p99} ms, errors ${result.errors}`,
    );
    fanout.push(result);
  }
}

function scenarios(info: ReadyInfo): Scenario[] {
  const { data, tokens } = info;
  const json = (body: string) => JSON.parse(body) as Record<string, unknown[] | number>;
  const nonEmpty = (key: string) => (result: { status: number; body: string }) => {
    const list = json(result.body)[key];
    if (result.status !== 200 || !Array.isArray(list) || list.length === 0) {
      throw new Error(`unexpected answer: ${result.status} ${result.body.slice(0, 200)}`);
    }
  };
  const queues = encodeURIComponent(JSON.stringify([data.queueIds[0], data.queueIds[1]]));
  const ok = (result: { status: number; body: string }) => {
    if (result.status !== 200) throw new Error(`unexpected answer: ${result.status} ${result.body.slice(0, 200)}`);
  };
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const metricsPath = (days: number) => `/api/dashboard/metrics?from=${day(days - 1)}&to=${day(0)}&tz=UTC`;
  return [
    {
      name: "inbox",
      path: () => `/api/tickets?status=open&queueIds=${queues}&pageNumber=1`,
      token: tokens.agent,
      check: nonEmpty("tickets"),
    },
    {
      name: "search",
      path: () => `/api/tickets?searchParam=${PROBE_WORD}&pageNumber=1`,
      token: tokens.agent,
      tokens: tokens.agents,
      check: nonEmpty("tickets"),
    },
    {
      name: "chat",
      path: (i) => `/api/messages/${data.hotTicketIds[i % data.hotTicketIds.length]}?pageNumber=1`,
      token: tokens.agent,
      check: nonEmpty("messages"),
    },
    // The chat pane's other read: the ticket's own GET (its header, its contact's extra info; it marks
    // the ticket read, which the hot tickets already are after the first).
    {
      name: "ticket",
      path: (i) => `/api/tickets/${data.hotTicketIds[i % data.hotTicketIds.length]}`,
      token: tokens.agent,
      check: ok,
    },
    {
      name: "contacts",
      path: () => `/api/contacts?searchParam=${CONTACT_TERM}`,
      token: tokens.agent,
      tokens: tokens.agents,
      check: nonEmpty("contacts"),
    },
    // Issue 13: the dashboard's queries (the spec's counts and charts, and the service-time metrics).
    // Issue 19: heavy reads, so ten at once come from ten users (the crowd).
    {
      name: "dashboard",
      path: () => "/api/dashboard?tz=America/Sao_Paulo",
      token: tokens.admin,
      tokens: tokens.admins,
      check: ok,
    },
    { name: "metrics30", path: () => metricsPath(30), token: tokens.admin, tokens: tokens.admins, check: nonEmpty("byDay") },
    { name: "metrics365", path: () => metricsPath(365), token: tokens.admin, tokens: tokens.admins, check: nonEmpty("byDay") },
    { name: "metricsAgent", path: () => metricsPath(30), token: tokens.agent, tokens: tokens.agents, check: nonEmpty("byDay") },
  ];
}

async function runEngine(engine: Engine): Promise<EngineReport> {
  const scale = num(`BENCH_SCALE_${engine.toUpperCase()}`, num("BENCH_SCALE", 1));
  const startedAt = new Date().toISOString();
  const began = performance.now();
  const before = loads();
  const dataDir = mkdtempSync(join(tmpdir(), `zapdesk-bench-${engine}-`));
  const dbName = `zapdesk_bench_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = engine === "postgres" ? new pg.Client({ connectionString: pgUrl.toString() }) : undefined;
  let server: ReturnType<typeof startServer> | undefined;
  let cleaning: Promise<void> | undefined;
  // Idempotent: the interrupt handler and the finally below may both ask for it.
  const cleanup = () => (cleaning ??= release());
  const release = async () => {
    const child = server?.child;
    const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
    if (child && alive()) {
      // Give a stopping server time to exit on its own (and write a CPU profile), then make sure it is gone.
      const exited = new Promise((r) => child.once("exit", r));
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (alive()) child.kill("SIGTERM");
      if (alive()) await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (admin) {
      await admin.query(`drop database if exists ${dbName} with (force)`).catch((e: Error) => console.error(e.message));
      await admin.end();
    }
  };
  // Ctrl-C must not leave a bench database or a temp dir behind.
  const interrupted = () => void cleanup().finally(() => process.exit(130));
  process.once("SIGINT", interrupted);
  try {
    let databaseUrl: string | undefined;
    if (admin) {
      await admin.connect();
      await admin.query(`create database ${dbName}`);
      const url = new URL(pgUrl);
      url.pathname = `/${dbName}`;
      databaseUrl = url.toString();
    }
    console.log(`[${engine}] generating the data set at scale ${scale} ...`);
    server = startServer(engine, scale, dataDir, databaseUrl);
    const running = server;
    const { info } = await running.next("ready", 20 * 60_000);
    console.log(`[${engine}] data set ready in ${(info.generateMs / 1000).toFixed(1)} s, listening on 127.0.0.1:${info.port}`);

    const cpu = async () => (await running.ask({ type: "cpu" }, "cpu", 10_000)).sample;
    const load = [];
    const only = process.env.BENCH_SCENARIOS?.split(",");
    for (const scenario of scenarios(info).filter((s) => !only || only.includes(s.name))) {
      await warmup(info.port, scenario, 20);
      for (const concurrency of [1, 10]) {
        const result = await withCpu(cpu, () => runScenario(info.port, scenario, concurrency, bounds));
        console.log(
          `[${engine}] ${scenario.name} c=${concurrency}: ${result.rate} req/s, p50 ${result.p50} p95 ${result.p95} p99 ${result.p99} ms`,
        );
        load.push(result);
      }
    }

    const mixed: MixedResult[] = [];
    if (!only || only.includes("mixed")) {
      for (const background of ["dashboard+export", "broad search"] as const) {
        const result = await withCpu(cpu, () => runMixed(info, background, bounds.maxSeconds));
        console.log(
          `[${engine}] inbox c=10 beside ${background}: p50 ${result.p50} p95 ${result.p95} p99 ${result.p99} ms; ` +
            `${result.heavy.count} heavy (p50 ${result.heavy.p50}, max ${result.heavy.max} ms); health max ${result.health.max} ms; ` +
            `Node's longest stall ${result.serverStallMs} ms`,
        );
        mixed.push(result);
      }
    }

    const stall: StallResult[] = [];
    if (!only || only.includes("stall")) {
      for (const background of STALL_BACKGROUNDS) {
        const result = await withCpu(cpu, () => runStall(info, background, bounds.maxSeconds));
        console.log(
          `[${engine}] /api/health beside ${background}: p50 ${result.p50} p99 ${result.p99} max ${result.max} ms; ` +
            `${result.heavy.count} heavy (p50 ${result.heavy.p50}, max ${result.heavy.max} ms); Node's longest stall ${result.serverStallMs} ms`,
        );
        stall.push(result);
      }
    }

    const fanout: FanoutResult[] = [];
    if (!only || only.includes("fanout")) await measureFanout(engine, info, cpu, fanout);

    const ingest: EngineReport["ingest"] = [];
    if (process.env.BENCH_INGEST !== "0") await measureIngest(engine, info, running, cpu, ingest);
    const { plans } = await server.ask({ type: "explain" }, "explain", 5 * 60_000);
    for (const plan of plans) console.log(`[${engine}] explain ${plan.name}: ${plan.executionMs} ms`);
    await server.ask({ type: "stop" }, "stopped", 60_000);
    return {
      info,
      scale,
      load,
      mixed,
      stall,
      ingest,
      fanout,
      plans,
      loadAverage: { before, after: loads() },
      startedAt,
      seconds: (performance.now() - began) / 1000,
    };
  } finally {
    process.off("SIGINT", interrupted);
    await cleanup();
  }
}

async function main() {
  console.log("machine:", machine());
  const reports: EngineReport[] = [];
  const resultsDir = join(ROOT, "bench/results");
  mkdirSync(resultsDir, { recursive: true });
  // First, before the engines load the machine: the web build's sizes and the tickets page's TTI.
  let web: WebReport | undefined;
  if (process.env.BENCH_WEB !== "0") {
    web = await measureWeb(ROOT);
    if (process.env.BENCH_REPORT !== "0") writeFileSync(join(resultsDir, "web.json"), `${JSON.stringify(web, null, 2)}\n`);
    console.log(`\n${renderWeb(web)}`);
  }
  for (const engine of engines) {
    const report = await runEngine(engine);
    reports.push(report);
    if (process.env.BENCH_REPORT !== "0")
      writeFileSync(join(resultsDir, `${engine}.json`), `${JSON.stringify({ machine: machine(), ...report }, null, 2)}\n`);
    console.log(`\n${renderEngine(report)}`);
  }
  if (process.env.BENCH_REPORT === "0") return;
  writeDoc(join(ROOT, "docs/benchmarks.md"), reports, web ? [renderWeb(web)] : []);
  // The results are committed: written as the project's formatter writes JSON, so `npm run check` stays green.
  const formatted = spawnSync("npx", ["biome", "format", "--write", resultsDir], { cwd: ROOT, stdio: "ignore" });
  if (formatted.status !== 0) console.warn("bench/results could not be formatted: run `npx biome format --write bench/results`");
  console.log("docs/benchmarks.md updated");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
