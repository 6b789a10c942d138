import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { nodeArgsFor } from "./server-bundle.js";

const serverRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A server CLI (`src/backup/cli.ts`, `src/import/cli.ts`, …) as the workspace's npm script runs it:
 * its output and how it ended. It runs from the test run's bundle (server-bundle.ts: the same
 * sources, compiled once for the run instead of by tsx at each start), with the arguments and
 * working folder of the npm script. `onOutput` sees the output so far and may kill the child (a real
 * interruption).
 */
export function runServerCli(
  script: string,
  args: string[],
  env: Record<string, string>,
  onOutput?: (output: string, child: ChildProcess) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgsFor(script, inject("serverBundle")), ...args], {
      cwd: serverRoot,
      env: { ...process.env, ...env, LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const take = (chunk: Buffer) => {
      output += chunk;
      onOutput?.(output, child);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("close", (code, signal) => resolve({ code, signal, output }));
  });
}
