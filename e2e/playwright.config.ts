import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

/*
 * The runner loads this file first and every worker loads it again: the port and
 * data folder are chosen once and handed on through the environment, so all of
 * them talk to the one server that global-setup.ts starts.
 */
function freePort(): string {
  const script = "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim();
}

process.env.E2E_PORT ??= freePort();
// One private folder per run (database and web build): runs started at the same time in
// the same checkout must not rebuild the files another run's server is serving.
process.env.E2E_TMP ??= mkdtempSync(join(tmpdir(), "zapdesk-e2e-"));
process.env.E2E_RUN_ID ??= `${Date.now().toString(36)}-${process.pid}`;
process.env.E2E_ADMIN_EMAIL ??= "admin@zapdesk.local";
process.env.E2E_ADMIN_PASSWORD ??= "admin123";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  // Playwright empties its output folder when a run starts: per run, so parallel runs keep theirs.
  outputDir: `artifacts/runs/${process.env.E2E_RUN_ID}`,
  globalSetup: "./support/global-setup.ts",
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["html", { outputFolder: `artifacts/runs/${process.env.E2E_RUN_ID}-report`, open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${process.env.E2E_PORT}`,
    locale: "pt-BR",
    viewport: { width: 1280, height: 800 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium: no browser is ever downloaded (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1).
      executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
});
