import { afterAll, afterEach, inject, vi } from "vitest";

// Temporary files and folders of this run's tests, and of the processes they start, go to one
// folder that global-setup.ts removes at the end of the run (os.tmpdir() reads TMPDIR each call).
process.env.TMPDIR = inject("testTmpDir");

// The server project runs its files one after another in the same process (vitest.config.ts,
// `isolate: false`): what one file changes in the process must not reach the next.
afterEach(() => {
  vi.useRealTimers();
});

/**
 * vi.waitFor gives up after one second unless a test says otherwise. On a machine running another
 * suite or CI beside this one, what a test waits for (a frame from Baileys, a socket's event, a
 * job's turn) took longer than that (real-pairing.test.ts, 2026-12-07). As the web project's
 * `asyncUtilTimeout` (20 s), the server's waits default to 15 s: a wait that passes returns as soon
 * as it does, and one that fails still fails, later. A wait given its own timeout keeps it. The
 * files of a worker share this module's `vi` (`isolate: false`), so it is wrapped once.
 */
const WAIT_MS = 15_000;
const wrapped = Symbol.for("zapdesk.test.waitFor");
if (!(wrapped in vi.waitFor)) {
  const waitFor = vi.waitFor;
  const patient: typeof waitFor = (callback, options = {}) =>
    waitFor(callback, typeof options === "number" ? options : { timeout: WAIT_MS, ...options });
  vi.waitFor = Object.assign(patient, { [wrapped]: true });
}

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
