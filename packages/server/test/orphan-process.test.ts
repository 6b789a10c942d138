import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { eventually } from "./conversation.js";
import { nodeArgsFor } from "./server-bundle.js";
import { freePort, zapdeskEnv } from "./zapdesk-process.js";

/**
 * A test run stopped by a signal ends its test processes, not the processes they started: an
 * `npm start` of a test (zapdesk-process.ts) kept running, listening and holding its embedded
 * PostgreSQL after the run. The run's bundle (server-bundle.ts) now stops a process whose parent
 * is gone, as SIGTERM stops `npm start`.
 */
const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-orphan-"));
const started: number[] = [];
afterAll(() => {
  for (const pid of started) if (running(pid)) process.kill(pid, "SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** Whether a process runs (a zombie, ended and not yet reaped by whoever adopted it, does not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("a process started by a test whose test process is killed", () => {
  it("stops, its embedded PostgreSQL with it", { timeout: 120_000 }, async () => {
    const port = await freePort();
    // The test process as a signal leaves it: a parent that starts Zapdesk, then is killed -9.
    const parentScript = `
      const { spawn } = require("node:child_process");
      const child = spawn(process.execPath, JSON.parse(process.env.ARGS), { stdio: ["ignore", "inherit", "inherit"] });
      console.log(JSON.stringify({ app: child.pid }));
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ["-e", parentScript], {
      cwd: join(import.meta.dirname, ".."),
      env: zapdeskEnv(port, { ARGS: JSON.stringify(nodeArgsFor("src/main.ts", inject("serverBundle"))), DATA_DIR: dataDir }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    parent.stdout.on("data", (chunk) => {
      output += chunk;
    });
    parent.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const pidOf = (key: string) => Number(new RegExp(`"${key}":(\\d+)`).exec(output)?.[1] ?? 0);
    if (parent.pid) started.push(parent.pid);

    // Up: listening, with its PostgreSQL (the pid its start-up line gives).
    await eventually(() => expect(pidOf("postgresPid"), output).toBeGreaterThan(0), 90_000);
    const app = pidOf("app");
    const postgres = pidOf("postgresPid");
    started.push(app, postgres);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);

    parent.kill("SIGKILL");
    await eventually(
      () => expect({ app: running(app), postgres: running(postgres) }, output).toEqual({ app: false, postgres: false }),
      30_000,
    );
    expect(output).toContain('"signal":"SIGTERM"');
  });
});
