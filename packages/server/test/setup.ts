import { afterAll, afterEach, vi } from "vitest";

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
