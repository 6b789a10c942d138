import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import pg from "pg";
import { vi } from "vitest";

/**
 * Issue 24: counts the SQL statements sent on behalf of one piece of work (a request, a message),
 * by spying on `pg.Client.prototype.query` and keeping only the calls made inside `statementsOf`'s
 * async context; the app's own timers (the outbox, the connection leases) run outside it. A named
 * (prepared) query counts by its name, any other by its text. Call `countStatements()` once per file
 * (in `beforeAll`), before the work to count.
 *
 * pg-pool runs a waiting caller's callback from whoever releases a client, in that caller's async
 * context: a query queued behind a busy pool would be counted for the app's timers, not for the work
 * (the CI run of 2026-12-05 saw two of three). `connect`'s callback is therefore bound to the context
 * it was asked from.
 */
const current = new AsyncLocalStorage<{ statements: string[]; roundTrips: number }>();

// The server project's files share a process (vitest.config.ts) and test/setup.ts restores every
// spy after each file: whether the spy is in place is asked of the method itself, not remembered.
const counting = () => vi.isMockFunction(pg.Client.prototype.query);

export function countStatements(): void {
  if (counting()) return;
  const connect = pg.Pool.prototype.connect;
  vi.spyOn(pg.Pool.prototype, "connect").mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
    if (typeof args[0] === "function") args[0] = AsyncResource.bind(args[0] as (...a: unknown[]) => unknown);
    return Reflect.apply(connect, this, args);
  } as typeof connect);
  const original = pg.Client.prototype.query;
  vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const text = args[0] as string | { name?: string; text: string; pipelinedBegin?: boolean; pipelined?: string[] };
    const store = current.getStore();
    if (store) store.roundTrips += 1;
    // A transaction's BEGIN riding with its first statement (db/begin-pipeline.ts) is a statement still.
    if (typeof text !== "string" && text.pipelinedBegin) store?.statements.push("begin");
    // So is each of the statements sent together in one round trip (db/pipeline.ts).
    if (typeof text !== "string" && text.pipelined) store?.statements.push(...text.pipelined);
    else store?.statements.push(typeof text === "string" ? text : (text.name ?? text.text));
    return Reflect.apply(original, this, args);
  } as typeof original);
}

/**
 * The statements `work` sent, in order, with its result, and the round trips they took (calls of
 * the driver: a statement riding with another, db/begin-pipeline.ts and db/pipeline.ts, takes none
 * of its own).
 */
export async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[]; roundTrips: number }> {
  // Without the spy every count would be zero, and a "at most N" test could not fail.
  if (!counting()) throw new Error("countStatements() was not called in this file");
  const store = { statements: [] as string[], roundTrips: 0 };
  // Awaited inside the context: a thenable (fastify's `inject`) starts its work only when awaited,
  // and awaited outside, none of its statements counted (chat-statements.test.ts counted none).
  const result = await current.run(store, async () => await work());
  return { result, statements: store.statements, roundTrips: store.roundTrips };
}

/**
 * `work` five times in a row, each counted: statements that ride together (db/pipeline.ts) do so
 * once they are parsed on the pooled connection a request gets. The pool hands out the connection
 * released last, which the app's own timers may take in between; a test expects the fewer round
 * trips in at least one of the runs, and never more than one by one.
 */
export async function statementsInARow<T>(work: () => Promise<T>, times = 5) {
  const runs: Awaited<ReturnType<typeof statementsOf<T>>>[] = [];
  for (let i = 0; i < times; i++) runs.push(await statementsOf(work));
  return runs;
}
