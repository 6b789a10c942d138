import { MutationCache, QueryCache } from "@tanstack/react-query";

/*
 * Async work must end with the test that started it. jsdom's globals (window, document,
 * localStorage) are removed when a file's environment is torn down; a timer or a promise that
 * lands after that (a session refresh settling, a query retrying, React reading `window.event` to
 * schedule a state update) throws "window is not defined" outside any test, and vitest fails the
 * run with an unhandled error blamed on whichever file happened to be last.
 *
 * This file is the first setup file, so it runs before React, TanStack Query or the app are
 * imported: it records every timer the test code starts (through the global setTimeout and
 * setInterval, as jsdom's own and the app's timers are), and every query and mutation cache.
 * `settleAsyncWork` (setup.ts, after unmounting) lets the short work in flight finish while the
 * page still exists, drops the caches (their garbage-collection timers and retries), and fails the
 * test if a timer is still pending after that: an interval nobody cleared, a retry, a debounce.
 */

interface Pending {
  kind: "timeout" | "interval";
  delay: number;
  stack: string;
}

const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realSetInterval = globalThis.setInterval;
const realClearInterval = globalThis.clearInterval;
const pending = new Map<unknown, Pending>();
const exempt: RegExp[] = [];

/**
 * Timers started by code whose stack matches are not the test's business: a real server the test
 * runs in its own process (socket.test.ts's socket.io server) closes on its own schedule and never
 * touches the page. Per file (each web test file has its own module state).
 */
export function ignoreTimersStartedBy(pattern: RegExp): void {
  exempt.push(pattern);
}

// biome-ignore lint/suspicious/noExplicitAny: the timer functions' overloads (Node's and the DOM's) differ.
type AnyTimer = (...args: any[]) => any;

function track(kind: Pending["kind"], real: AnyTimer): AnyTimer {
  const tracked = function (this: unknown, callback: unknown, delay?: number, ...args: unknown[]) {
    if (typeof callback !== "function") return real.call(this, callback, delay, ...args);
    const handle = real.call(
      this,
      function (this: unknown, ...callArgs: unknown[]) {
        if (kind === "timeout") pending.delete(handle);
        return callback.apply(this, callArgs);
      },
      delay,
      ...args,
    );
    const stack = new Error().stack ?? "";
    if (!exempt.some((pattern) => pattern.test(stack))) pending.set(handle, { kind, delay: Number(delay ?? 0), stack });
    return handle;
  };
  // Keeps util.promisify.custom and the like.
  Object.assign(tracked, real);
  return tracked;
}

function untrack(real: AnyTimer): AnyTimer {
  return (handle: unknown) => {
    pending.delete(handle);
    real(handle);
  };
}

globalThis.setTimeout = track("timeout", realSetTimeout) as typeof setTimeout;
globalThis.setInterval = track("interval", realSetInterval) as typeof setInterval;
globalThis.clearTimeout = untrack(realClearTimeout) as typeof clearTimeout;
globalThis.clearInterval = untrack(realClearInterval) as typeof clearInterval;

// Every query and mutation built, kept also when the app drops them from their cache (a logout
// clears the cache while screens still observe its queries, which then schedule their removal).
const built = new Set<{ destroy(): void }>();
const buildQuery = QueryCache.prototype.build;
QueryCache.prototype.build = function (this: QueryCache, ...args: Parameters<QueryCache["build"]>) {
  const query = buildQuery.apply(this, args);
  built.add(query);
  return query;
} as QueryCache["build"];
const buildMutation = MutationCache.prototype.build;
MutationCache.prototype.build = function (this: MutationCache, ...args: Parameters<MutationCache["build"]>) {
  const mutation = buildMutation.apply(this, args);
  built.add(mutation);
  return mutation;
} as MutationCache["build"];

/** Work that ends within this long after the test is let finish (a refresh polling its lock, a fetch settling). */
const SHORT_MS = 1_000;
/** How long the short work may take, in all, before the test fails for it. */
const SETTLE_LIMIT_MS = 5_000;
/** Turns of the event loop with no short timer pending after which the work in flight counts as done. */
const IDLE_TURNS = 3;

const pause = (ms: number) => new Promise<void>((resolve) => realSetTimeout(resolve, ms));

function describePending(entries: Pending[]): string {
  return entries
    .map((entry) => {
      const frames = entry.stack
        .split("\n")
        .slice(1)
        .map((line) => line.trim())
        .filter((line) => !line.includes("/testing/leak-guard.ts"))
        .slice(0, 4);
      return `  ${entry.kind === "interval" ? "an interval" : "a timeout"} of ${entry.delay} ms started\n    ${frames.join("\n    ")}`;
    })
    .join("\n");
}

/**
 * Called after the test's components are unmounted: waits for short timers (and what they lead to)
 * to run out while the page still exists, drops every query and mutation cache and what
 * `dropStores` drops (the toasts), then fails if any timer is left, with where each was started.
 * `report: false` (a test that already failed, e.g. timed out half-way) only stops what is left.
 */
export async function settleAsyncWork(dropStores: () => void = () => {}, { report = true } = {}): Promise<void> {
  const startedAt = Date.now();
  let cleared = false;
  let idle = 0;
  for (;;) {
    await pause(0);
    const left = [...pending.values()];
    const short = left.filter((entry) => entry.kind === "timeout" && entry.delay <= SHORT_MS);
    const overdue = Date.now() - startedAt > SETTLE_LIMIT_MS;
    if (short.length > 0 && !overdue) {
      idle = 0;
      await pause(10);
      continue;
    }
    // Work between timers may still take a turn or two of the event loop (a response's body read
    // after its fetch resolved: one turn in a worker thread's globals, two in a VM context's).
    if (++idle < IDLE_TURNS && !overdue) continue;
    if (left.length > 0 && !overdue && !cleared) {
      // Nothing short left in flight: what the caches hold ends here (garbage-collection timers,
      // retries, refetches), then one more look.
      // (destroy() stops a query's or a mutation's garbage-collection timer and cancels a retry.)
      for (const item of built) item.destroy();
      // A toast raised by the work that just ended (a query that failed after the test's last look).
      dropStores();
      cleared = true;
      continue;
    }
    built.clear();
    if (left.length === 0) return;
    for (const handle of pending.keys()) {
      realClearTimeout(handle as Parameters<typeof clearTimeout>[0]);
      realClearInterval(handle as Parameters<typeof clearInterval>[0]);
    }
    pending.clear();
    if (!report) return;
    throw new Error(
      `the test left ${left.length} timer(s) running after its components were unmounted; ` +
        `stop them (clear the interval, await the work, unmount what started it):\n${describePending(left)}`,
    );
  }
}
