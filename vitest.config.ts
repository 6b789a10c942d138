import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Vitest's default is one worker per core less one: a single worker, every file in turn, on a
    // 2-core machine, while most server tests wait on PostgreSQL, sockets and child processes.
    // Two keep both cores busy without oversubscribing them when the machine is shared (docs/testing.md).
    maxWorkers: 2,
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
          environment: "jsdom",
          // leak-guard.ts first: it records the timers of everything imported after it.
          setupFiles: ["src/testing/leak-guard.ts", "src/testing/setup.ts"],
          // Room for a test's 20 s waits (setup.ts) on a machine running another suite beside this one.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
