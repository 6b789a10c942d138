/**
 * Issue 19, "no single request stalls /api/health by more than 50 ms": the health probe (every 25 ms)
 * beside exactly one heavy request at a time, run back to back (an agent's broad search, the admin's
 * dashboard, its 30-day metrics, a conversation's export), and beside nothing for a baseline. Unlike
 * mixed.ts, no inbox load runs at the same time, so the probe's slowest answer is what one request
 * does to everyone else, not queueing behind ten others on two cores.
 */
import { target } from "./load.js";
import { type Background, heavyOperations, probeHealth } from "./mixed.js";
import type { ReadyInfo } from "./protocol.js";
import { type Summary, summarize } from "./stats.js";

export type StallBackground = Exclude<Background, "dashboard+export"> | "nothing";
export const STALL_BACKGROUNDS: StallBackground[] = ["nothing", "broad search", "dashboard", "metrics", "export"];

export interface StallResult extends Summary {
  /** What ran beside the probe, one request at a time. */
  background: StallBackground;
  /** The heavy requests completed: count, errors, p50 and max ms. */
  heavy: { count: number; errors: number; p50: number; max: number };
}

/** The probe's answers (the Summary's latencies) while `background` runs alone, for `seconds`. */
export async function runStall(info: ReadyInfo, background: StallBackground, seconds: number): Promise<StallResult> {
  const heavyTarget = target(info.port, 1);
  const probe = target(info.port, 1);
  const started = performance.now();
  const done = () => performance.now() >= started + seconds * 1000;
  const health: number[] = [];
  const heavy: number[] = [];
  let heavyErrors = 0;
  const operations = background === "nothing" ? [] : heavyOperations(info, heavyTarget, background);
  try {
    await Promise.all([
      probeHealth(probe, info.tokens.agent, done, health),
      (async () => {
        for (let i = 0; operations.length > 0 && !done(); i++) {
          const begin = performance.now();
          try {
            await operations[i % operations.length]!();
            heavy.push(performance.now() - begin);
          } catch (error) {
            if (heavyErrors === 0) console.error(`  stall ${background}: ${(error as Error).message}`);
            heavyErrors += 1;
          }
        }
      })(),
    ]);
  } finally {
    for (const t of [heavyTarget, probe]) t.agent.destroy();
  }
  const elapsed = (performance.now() - started) / 1000;
  const heavySummary = summarize(heavy, heavyErrors, elapsed);
  return {
    background,
    ...summarize(health, 0, elapsed),
    heavy: { count: heavySummary.count, errors: heavyErrors, p50: heavySummary.p50, max: heavySummary.max },
  };
}
