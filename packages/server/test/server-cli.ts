import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const serverRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A server CLI (`src/backup/cli.ts`, `src/import/cli.ts`, …) as the workspace's npm script runs it:
 * its output and how it ended. `onOutput` sees the output so far and may kill the child (a real
 * interruption).
 */
export function runServerCli(
  script: string,
  args: string[],
  env: Record<string, string>,
  onOutput?: (output: string, child: ChildProcess) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
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
