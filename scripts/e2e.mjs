// Browser journeys: Playwright in Debian's Chromium against the built server.

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const specs = existsSync("e2e") ? readdirSync("e2e").filter((f) => f.endsWith(".spec.ts")) : [];
if (specs.length === 0) {
  console.log("No browser journeys yet (e2e/*.spec.ts).");
  process.exit(0);
}
const result = spawnSync("npx", ["playwright", "test", "-c", "e2e/playwright.config.ts", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" },
});
process.exit(result.status ?? 1);
