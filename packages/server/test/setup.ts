import { afterAll, afterEach, inject, vi } from "vitest";

// Temporary files and folders of this run's tests, and of the processes they start, go to one
// folder that global-setup.ts removes at the end of the run (os.tmpdir() reads TMPDIR each call).
process.env.TMPDIR = inject("testTmpDir");

// The server project runs its files one after another in the same process (vitest.config.ts,
// `isolate: false`): what one file changes in the process must not reach the next.
afterEach(() => {
  vi.useRealTimers();
});

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
