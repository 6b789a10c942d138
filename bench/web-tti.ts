/**
 * Time to interactive of the tickets page, read from Chromium's performance timeline (Debian's
 * Chromium through Playwright, no browser download). The real server serves the production build
 * on a fresh embedded database; each sample is a cold load (new browser context, empty cache) of
 * /tickets for a signed-in admin.
 *
 * TTI here = the later of "the tickets list is in the page" and the end of the last long task
 * (> 50 ms) before it settles; TBT = the long tasks' time beyond 50 ms each. Also reports the
 * bytes the browser actually transferred for scripts and styles (compressed on the wire). Each figure
 * is taken on loopback as is and again throttled like Lighthouse's mobile preset, where bytes count.
 *
 * Run alone: `npx tsx bench/web-tti.ts` (BENCH_TTI_RUNS, default 5; BENCH_WEB_BUILD=0 keeps the build).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "@playwright/test";

export interface TtiSample {
  ttfb: number;
  domContentLoaded: number;
  load: number;
  listVisible: number;
  tti: number;
  tbt: number;
  longTasks: number;
  scriptAndStyleTransferred: number;
}

export interface TtiReport {
  runs: number;
  /** Loopback as is, and throttled like Lighthouse's mobile preset (150 ms RTT, 1.6 Mbit/s down). */
  median: TtiSample;
  throttled: TtiSample;
}

const LIGHTHOUSE_NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };

const ADMIN = { email: "bench-admin@zapdesk.local", password: "bench-admin-123" };
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// Registered before any page script runs: long tasks and the moment the tickets list appears.
const OBSERVE = `
  window.__bench = { longTasks: [], listVisible: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  new MutationObserver(() => {
    if (!window.__bench.listVisible && document.querySelector('[role="list"] [role="listitem"]')) window.__bench.listVisible = performance.now();
  }).observe(document, { childList: true, subtree: true });
`;

const freePort = () =>
  execFileSync(
    process.execPath,
    ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"],
    {
      encoding: "utf8",
    },
  ).trim();

async function startServer(root: string, dataDir: string, port: string): Promise<ChildProcess> {
  const server = spawn(join(root, "node_modules/.bin/tsx"), ["packages/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: port,
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      WEB_DIST: join(root, "packages/web/dist"),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return server;
    await new Promise((r) => setTimeout(r, 250));
  }
  server.kill("SIGTERM");
  throw new Error("the server did not become healthy");
}

async function sample(browser: Browser, base: string, throttle: boolean): Promise<TtiSample> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 }, locale: "pt-BR" });
  try {
    // Signed in through the form, as a person would; then the browser cache is emptied so the
    // measured load of /tickets fetches every asset again (cold), restoring the session on load.
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Senha", { exact: true }).fill(ADMIN.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.clearBrowserCache");
    if (throttle) {
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", LIGHTHOUSE_NETWORK);
    }
    await page.addInitScript(OBSERVE);
    await page.goto("/tickets");
    await page
      .getByRole("listitem")
      .first()
      .waitFor({ timeout: 20_000 })
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nat ${page.url()}: ${(await page.locator("body").innerText()).slice(0, 300)}`);
      });
    // Let the page settle so the long tasks of the first render are all recorded.
    await page.waitForTimeout(1500);
    return await page.evaluate(() => {
      const bench = (
        globalThis as unknown as { __bench: { longTasks: { start: number; duration: number }[]; listVisible: number } }
      ).__bench;
      // The browser's timeline types, spelled out: this file is checked with Node's lib, not the DOM's.
      const timeline = performance as unknown as { getEntriesByType(type: string): unknown[] };
      const [nav] = timeline.getEntriesByType("navigation") as {
        responseStart: number;
        domContentLoadedEventEnd: number;
        loadEventEnd: number;
      }[];
      const resources = timeline.getEntriesByType("resource") as { name: string; initiatorType: string; transferSize: number }[];
      const lastLongTaskEnd = Math.max(0, ...bench.longTasks.map((t) => t.start + t.duration));
      return {
        ttfb: nav.responseStart,
        domContentLoaded: nav.domContentLoadedEventEnd,
        load: nav.loadEventEnd,
        listVisible: bench.listVisible,
        tti: Math.max(bench.listVisible, lastLongTaskEnd, nav.domContentLoadedEventEnd),
        tbt: bench.longTasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0),
        longTasks: bench.longTasks.length,
        scriptAndStyleTransferred: resources
          .filter((r) => r.initiatorType === "script" || r.initiatorType === "link" || /\.(js|css)$/.test(r.name))
          .reduce((sum, r) => sum + r.transferSize, 0),
      };
    });
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Starts a server on the existing build (see web-bundle.ts, which builds), measures, stops it. */
export async function measureTti(root: string, runs = Number(process.env.BENCH_TTI_RUNS ?? 5)): Promise<TtiReport> {
  const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-bench-tti-"));
  const port = freePort();
  const server = await startServer(root, dataDir, port);
  const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    // The admin's tickets list needs a row to show: one simulator conversation, created through the API.
    await seedTicket(`http://127.0.0.1:${port}`);
    const base = `http://127.0.0.1:${port}`;
    await sample(browser, base, false); // warm the server's file cache, not measured
    const medianOf = async (throttle: boolean) => {
      const samples: TtiSample[] = [];
      for (let i = 0; i < runs; i++) samples.push(await sample(browser, base, throttle));
      const keys = Object.keys(samples[0]) as (keyof TtiSample)[];
      return Object.fromEntries(keys.map((k) => [k, Math.round(median(samples.map((s) => s[k])))])) as unknown as TtiSample;
    };
    return { runs, median: await medianOf(false), throttled: await medianOf(true) };
  } finally {
    await browser.close();
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function seedTicket(base: string) {
  let token = "";
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const session = (await call("POST", "/auth/login", ADMIN)) as { token: string; user: { id: number } };
  token = session.token;
  const connection = {
    name: "Bench",
    provider: "simulator",
    queueIds: [],
    greetingMessage: "",
    farewellMessage: "",
    isDefault: true,
  };
  const whatsapp = (await call("POST", "/whatsapp", connection)) as { id: number };
  // The simulator pairs a moment after creation (inbound is refused until then) and the message
  // becomes a pending ticket asynchronously: retry until there is one, then accept it so it shows
  // on the tab the page opens on.
  const inbound = { from: "5511987650001", name: "Bench customer", body: "hello" };
  for (let attempt = 0; attempt < 150; attempt++) {
    await call("POST", `/simulator/${whatsapp.id}/inbound`, inbound).catch(() => undefined);
    const { tickets } = (await call("GET", "/tickets?status=pending&showAll=true")) as { tickets: { id: number }[] };
    if (tickets.length > 0) {
      await call("PUT", `/tickets/${tickets[0].id}`, { status: "open", userId: session.user.id });
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("no ticket to show");
}

export function renderTti(report: TtiReport): string {
  const a = report.median;
  const b = report.throttled;
  const row = (name: string, key: keyof TtiSample) => `| ${name} | ${a[key]} | ${b[key]} |`;
  return [
    `| tickets page, cold load (median of ${report.runs}), ms | loopback | 150 ms RTT, 1.6 Mbit/s |`,
    "|---|---|---|",
    row("first byte", "ttfb"),
    row("DOMContentLoaded", "domContentLoaded"),
    row("load", "load"),
    row("tickets list in the page", "listVisible"),
    row("time to interactive", "tti"),
    row("total blocking time", "tbt"),
    row("long tasks (count)", "longTasks"),
    `| JS + CSS transferred | ${(a.scriptAndStyleTransferred / 1000).toFixed(1)} kB | ${(b.scriptAndStyleTransferred / 1000).toFixed(1)} kB |`,
  ].join("\n");
}

if (process.argv[1]?.endsWith("web-tti.ts")) {
  const root = join(import.meta.dirname, "..");
  if (process.env.BENCH_WEB_BUILD !== "0") execFileSync("npm", ["run", "build"], { cwd: root, stdio: "ignore" });
  measureTti(root).then(
    (report) => console.log(renderTti(report)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
