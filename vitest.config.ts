import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Packages the web project runs in Node as they are, not through the optimizer (see `deps` below):
 * socket.io-client's browser build, bundled, calls Node's `util.deprecate`, which the bundle lacks;
 * socket.test.ts talks to a real socket.io server with its Node build, as before.
 */
const NOT_BUNDLED = /^(vitest|@zapdesk\/|@testing-library\/jest-dom|socket\.io$|socket\.io-client$|node:)/;

/**
 * Every package entry the web sources and tests import (`@mui/material/Box`, `react-router`, …),
 * plus the JSX runtime the compiler adds: the optimizer bundles exactly these.
 */
function webDependencies(dir = "packages/web/src"): string[] {
  const found = new Set(["react/jsx-runtime", "react/jsx-dev-runtime"]);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const source = readFileSync(join(entry.parentPath, entry.name), "utf8");
    for (const match of source.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)"([^".\s][^"\s]*)"/g)) {
      if (!NOT_BUNDLED.test(match[1])) found.add(match[1]);
    }
  }
  return [...found].sort();
}

/**
 * A hash of @zapdesk/core's sources. The optimizer bundles core with the packages (through the module
 * runner its 50 files cost a web file about a second before its first test; bundled, a tenth of
 * that), but Vite keys its cache on the lockfile and the configuration, not on a linked package's
 * files: the hash goes into the optimizer's configuration, so any change to core rebuilds the bundle.
 */
function coreSourcesHash(dir = "packages/core/src"): string {
  const hash = createHash("sha256");
  const files = readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(file).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

export default defineConfig({
  test: {
    // Vitest's default is one worker per core less one: a single worker, every file in turn, on a
    // 2-core machine. A file keeps its core busy about 80 % of its time (the server's wait on
    // PostgreSQL, sockets and child processes, the web's on timers), so one and a half workers per
    // core keep the cores busy: on 2 cores, 3 workers ran the suite in 339 s against 369 s with 2,
    // for 5 % more CPU (docs/testing.md, tenth pass).
    maxWorkers: Math.max(2, Math.round(availableParallelism() * 1.5)),
    // The web project's VM pool (below) replaces a worker whose heap passes this after a file: VM
    // contexts leave some behind, and vitest's default is half of the machine's memory per worker.
    // Read from here only (vitest ignores it in a project).
    vmMemoryLimit: "1GB",
    projects: [
      {
        test: {
          name: "core",
          root: "packages/core",
          include: ["src/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "server",
          root: "packages/server",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: "forks",
          // A worker runs its files one after another in one process, importing the app once instead
          // of once per file (about 1 s each); every file still gets its own database and app
          // (harness.ts), and test/setup.ts resets what a file could leave behind.
          isolate: false,
        },
      },
      {
        test: {
          name: "web",
          root: "packages/web",
          include: ["src/**/*.test.tsx", "src/**/*.test.ts"],
          // happy-dom: a file's DOM starts in a third of jsdom's time and the web project needs about
          // 40 % less CPU (docs/testing.md). A file that needs what only jsdom does (computed styles of
          // :focus-within) says so in its first line: `// @vitest-environment jsdom`.
          environment: "happy-dom",
          // Each file runs in a fresh worker, which used to load React, MUI, emotion and the rest
          // from their thousands of files in node_modules again: about 1.5 s before a file's first
          // test. The optimizer bundles the entries the sources import once per run (cached in
          // node_modules/.vite until they change), so a worker loads a few files instead.
          deps: {
            optimizer: {
              client: {
                enabled: true,
                include: [...webDependencies(), "@zapdesk/core"],
                rolldownOptions: { transform: { define: { __ZAPDESK_CORE_SOURCES__: JSON.stringify(coreSourcesHash()) } } },
              },
            },
          },
          // A worker thread that runs file after file, each in a fresh VM context (its own module
          // graph, globals and DOM window), keeping the DOM library, the module runner and vitest's
          // own modules loaded between files: about 40 % less CPU than a thread per file, which
          // loaded them again for each (docs/testing.md, seventh pass). What the worker keeps is
          // shared by its files, so a test that changes a prototype of the DOM library puts it back
          // (testing/layout.ts, the spies restored in setup.ts). A worker is replaced once its heap
          // passes `vmMemoryLimit` (above).
          pool: "vmThreads",
          // leak-guard.ts first: it records the timers of everything imported after it.
          setupFiles: ["src/testing/leak-guard.ts", "src/testing/setup.ts"],
          // Room for a test's 20 s waits (setup.ts) on a machine running another suite beside this one.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
