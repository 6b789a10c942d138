import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { nodeArgsFor } from "./server-bundle.js";

const serverRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A port nobody listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ZapdeskProcess {
  child: ChildProcess;
  port: number;
  origin: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Resolves once GET /api/health answers 200; rejects if the process exits first. */
  healthy(timeoutMs?: number): Promise<void>;
}

/** The environment `startZapdesk` gives `npm start`'s server: the test's `env` over the tests' defaults. */
export function zapdeskEnv(port: number, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    WEB_DIST: "/nonexistent",
    ADMIN_EMAIL: "admin@zapdesk.test",
    ADMIN_PASSWORD: "admin-pass",
    ...env,
    PORT: String(port),
  };
}

/**
 * `npm start`'s server (src/main.ts, from the test run's bundle: server-bundle.ts) as a real
 * process: its own pid, its own embedded PostgreSQL in DATA_DIR, signals and kill -9 as on a real
 * machine.
 */
export async function startZapdesk(env: Record<string, string>): Promise<ZapdeskProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, nodeArgsFor("src/main.ts", inject("serverBundle")), {
    cwd: serverRoot,
    env: zapdeskEnv(port, env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const origin = `http://127.0.0.1:${port}`;
  return {
    child,
    port,
    origin,
    output: () => output,
    exited,
    async healthy(timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`Zapdesk exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${output}`);
        }
        const ok = await fetch(`${origin}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`Zapdesk was not healthy within ${timeoutMs} ms:\n${output}`);
    },
  };
}

/** Sign in as the process's administrator: the headers of its requests and its id. */
export async function signIn(origin: string, email = "admin@zapdesk.test", password = "admin-pass") {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const { token, user } = (await res.json()) as { token: string; user: { id: number } };
  return { headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, userId: user.id };
}
