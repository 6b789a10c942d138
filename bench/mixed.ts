/**
 * Issue 19: one agent's inbox while someone else does something heavy. Agents load their inbox at
 * concurrency 10 while, at the same time, either an admin loads the dashboard (counts, charts and
 * service-time metrics) and exports a conversation (every page of the hot ticket, what an export
 * reads), or another agent runs broad two-letter searches back to back. A probe asks /api/health
 * every 25 ms throughout: its slowest answer is the longest any request stalled the server.
 */
import { call, type HttpResult, type Target, target } from "./load.js";
import type { ReadyInfo } from "./protocol.js";
import { closedLoop, type Summary, summarize } from "./stats.js";

/** Two letters, a word of the corpus and the prefix of many ("de", "desconto", "devolução", "dia"…): the broadest search allowed. */
export const BROAD_TERM = "de";
const HEALTH_EVERY_MS = 25;

/** What runs beside the inbox ("dashboard+export", "broad search"), or alone beside the health probe (stall.ts). */
export type Background = "dashboard+export" | "broad search" | "dashboard" | "metrics" | "export";

export interface MixedResult extends Summary {
  background: Background;
  /** The heavy side: operations completed (a dashboard load, an export or a search), their p50 and max, ms. */
  heavy: { count: number; errors: number; p50: number; max: number };
  /** /api/health every 25 ms: answers and latencies, ms. */
  health: { count: number; p50: number; p99: number; max: number };
}

export function ok(result: HttpResult, what: string): HttpResult {
  if (result.status !== 200) throw new Error(`${what}: ${result.status} ${result.body.slice(0, 200)}`);
  return result;
}

/** Every page of the hot ticket's messages, oldest last, as an export reads them (at most 100 pages). */
async function exportConversation(t: Target, info: ReadyInfo): Promise<void> {
  const ticket = info.data.hotTicketIds[0];
  for (let page = 1; page <= 100; page++) {
    const { body } = ok(await call(t, "GET", `/api/messages/${ticket}?pageNumber=${page}`, info.tokens.admin), "export");
    if (!(JSON.parse(body) as { hasMore: boolean }).hasMore) return;
  }
}

/** The heavy side's operations, taken in turn: an admin's dashboard, its metrics and an export, or one agent's broad search. */
export function heavyOperations(info: ReadyInfo, t: Target, background: Background): (() => Promise<unknown>)[] {
  const { tokens } = info;
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const dashboard = () => call(t, "GET", "/api/dashboard?tz=America/Sao_Paulo", tokens.admin).then((r) => ok(r, "dashboard"));
  const metrics = () =>
    call(t, "GET", `/api/dashboard/metrics?from=${day(29)}&to=${day(0)}&tz=UTC`, tokens.admin).then((r) => ok(r, "metrics"));
  const search = () =>
    call(t, "GET", `/api/tickets?searchParam=${BROAD_TERM}&pageNumber=1`, tokens.queueAgents[1] ?? tokens.admin).then((r) =>
      ok(r, "search"),
    );
  switch (background) {
    case "dashboard+export":
      return [dashboard, metrics, () => exportConversation(t, info)];
    case "broad search":
      return [search];
    case "dashboard":
      return [dashboard];
    case "metrics":
      return [metrics];
    case "export":
      return [() => exportConversation(t, info)];
  }
}

/** Ask /api/health every 25 ms until `done`, pushing each answer's latency (ms) to `into`. */
export async function probeHealth(t: Target, token: string, done: () => boolean, into: number[]): Promise<void> {
  while (!done()) {
    const begin = performance.now();
    ok(await call(t, "GET", "/api/health", token), "health");
    into.push(performance.now() - begin);
    await new Promise((r) => setTimeout(r, HEALTH_EVERY_MS));
  }
}

export async function runMixed(info: ReadyInfo, background: Background, maxSeconds: number): Promise<MixedResult> {
  const { port, tokens, data } = info;
  const queues = encodeURIComponent(JSON.stringify([data.queueIds[0], data.queueIds[1]]));
  const inbox = target(port, 10);
  const heavyTarget = target(port, 1);
  const probe = target(port, 1);
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  const done = () => performance.now() >= deadline;
  const latencies: number[] = [];
  const heavy: number[] = [];
  const health: number[] = [];
  let errors = 0;
  let heavyErrors = 0;

  const operations = heavyOperations(info, heavyTarget, background);

  try {
    await Promise.all([
      closedLoop(10, done, async () => {
        const begin = performance.now();
        try {
          ok(await call(inbox, "GET", `/api/tickets?status=open&queueIds=${queues}&pageNumber=1`, tokens.agent), "inbox");
          latencies.push(performance.now() - begin);
        } catch (error) {
          if (errors === 0) console.error(`  mixed inbox: ${(error as Error).message}`);
          errors += 1;
        }
      }),
      (async () => {
        for (let i = 0; !done(); i++) {
          const begin = performance.now();
          try {
            await operations[i % operations.length]!();
            heavy.push(performance.now() - begin);
          } catch (error) {
            if (heavyErrors === 0) console.error(`  mixed ${background}: ${(error as Error).message}`);
            heavyErrors += 1;
          }
        }
      })(),
      probeHealth(probe, tokens.agent, done, health),
    ]);
  } finally {
    for (const t of [inbox, heavyTarget, probe]) t.agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  const heavySummary = summarize(heavy, heavyErrors, seconds);
  const healthSummary = summarize(health, 0, seconds);
  return {
    background,
    ...summarize(latencies, errors, seconds),
    heavy: { count: heavySummary.count, errors: heavyErrors, p50: heavySummary.p50, max: heavySummary.max },
    health: { count: healthSummary.count, p50: healthSummary.p50, p99: healthSummary.p99, max: healthSummary.max },
  };
}
