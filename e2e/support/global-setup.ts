import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { claimRunFolder, removeAbandonedRuns } from "../../packages/server/test/scratch-root";
import { startE2eGraphFake } from "./graph-fake";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

async function waitForHealth(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited early with code ${server.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not answer ${url} within ${timeoutMs} ms`);
}

/**
 * Builds the web app into this run's own folder (the server lists the files it
 * serves at start-up, so the build comes first), starts the Graph API fake the
 * Cloud journeys talk to, then starts the real server on the chosen port with a
 * fresh database, pointed at the fake. Returns the teardown.
 * E2E_SKIP_BUILD=1 serves the existing packages/web/dist instead.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const tmp = process.env.E2E_TMP!;
  // The folders of journeys' runs stopped before their teardown (a signal to the runner): database
  // and web build, about 55 MB each. This run's folder names its runner for the next.
  removeAbandonedRuns(tmpdir());
  claimRunFolder(tmp);
  const port = process.env.E2E_PORT!;
  const dataDir = join(tmp, "data");
  mkdirSync(dataDir, { recursive: true });
  let webDist = join(root, "packages/web/dist");
  if (process.env.E2E_SKIP_BUILD !== "1") {
    webDist = join(tmp, "web");
    execFileSync("npm", ["run", "build", "--workspace", "@zapdesk/web", "--", "--outDir", webDist, "--emptyOutDir"], {
      cwd: root,
      stdio: "inherit",
    });
  }
  const graph = await startE2eGraphFake();
  // Workers inherit the runner's environment: they read the account and ask the fake what Meta received.
  process.env.E2E_CLOUD_ACCOUNT = JSON.stringify(graph.account);
  process.env.E2E_GRAPH_CONTROL = graph.controlUrl;
  const serverRoot = process.env.E2E_SERVER_ROOT ?? root;
  // Under node with tsx's loader (not tsx's CLI, a process between): a server whose runner is gone
  // (a run stopped by a signal) stops itself (exit-with-parent.mjs).
  const loaders = ["packages/server/test/exit-with-parent.mjs", "node_modules/tsx/dist/loader.mjs"];
  const imports = loaders.flatMap((file) => ["--import", pathToFileURL(join(root, file)).href]);
  const server = spawn(process.execPath, [...imports, "packages/server/src/main.ts"], {
    cwd: serverRoot,
    env: {
      ...process.env,
      PORT: port,
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_EMAIL: process.env.E2E_ADMIN_EMAIL,
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
      WEB_DIST: webDist,
      LOG_LEVEL: "warn",
      WHATSAPP_GRAPH_URL: graph.graphUrl,
      // QR connections reach no WhatsApp here, whatever the machine's network: a port nobody listens on.
      WHATSAPP_WEB_URL: "ws://127.0.0.1:9/ws/chat",
      NODE_ENV: "test",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(`http://127.0.0.1:${port}/api/health`, server, 120_000).catch(async (error) => {
    await graph.close();
    throw error;
  });

  return async () => {
    server.kill("SIGTERM");
    await new Promise<void>((resolveExit) => {
      const timer = setTimeout(() => {
        server.kill("SIGKILL");
        resolveExit();
      }, 10_000);
      server.once("exit", () => {
        clearTimeout(timer);
        resolveExit();
      });
    });
    await graph.close();
    rmSync(tmp, { recursive: true, force: true });
  };
}
