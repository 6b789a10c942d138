import { Agent, request } from "node:http";
import { closedLoop, type Summary, summarize } from "./stats.js";

export interface Target {
  port: number;
  agent: Agent;
}

/** One keep-alive connection per worker, as a browser tab would hold; loopback only. */
export function target(port: number, concurrency: number): Target {
  return { port, agent: new Agent({ keepAlive: true, maxSockets: concurrency }) };
}

export interface HttpResult {
  status: number;
  body: string;
}

export function call(t: Target, method: "GET" | "POST", path: string, token: string, payload?: unknown): Promise<HttpResult> {
  const body = payload === undefined ? undefined : JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: t.port,
        method,
        path,
        agent: t.agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}),
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.on("error", reject);
    req.end(body);
  });
}

export interface Scenario {
  name: string;
  /** The request of the i-th iteration (some scenarios rotate over several tickets). */
  path(i: number): string;
  token: string;
  /** One per worker instead of `token` (heavy reads: one per user in flight, so a crowd of users). */
  tokens?: string[];
  /** Throws when an answer is not what the scenario expects (an empty search would measure nothing). */
  check(result: HttpResult): void;
}

export interface Bounds {
  maxRequests: number;
  maxSeconds: number;
}

/** A few requests first: connections open, plans cached, JIT warm; they are not measured. */
export async function warmup(port: number, scenario: Scenario, requests: number): Promise<void> {
  const t = target(port, 1);
  try {
    for (let i = 0; i < requests; i++) scenario.check(await call(t, "GET", scenario.path(i), scenario.token));
  } finally {
    t.agent.destroy();
  }
}

export interface LoadResult extends Summary {
  scenario: string;
  concurrency: number;
}

/** A closed loop: `concurrency` workers, each sends its next request when the previous one answered. */
export async function runScenario(port: number, scenario: Scenario, concurrency: number, bounds: Bounds): Promise<LoadResult> {
  const t = target(port, concurrency);
  try {
    const latencies: number[] = [];
    let errors = 0;
    let issued = 0;
    const started = performance.now();
    const deadline = started + bounds.maxSeconds * 1000;
    await closedLoop(
      concurrency,
      () => issued >= bounds.maxRequests || performance.now() >= deadline,
      async (worker) => {
        const i = issued++;
        const begin = performance.now();
        try {
          const token = scenario.tokens?.[worker % scenario.tokens.length] ?? scenario.token;
          const result = await call(t, "GET", scenario.path(i), token);
          if (result.status !== 200) throw new Error(`${result.status} ${result.body.slice(0, 200)}`);
          latencies.push(performance.now() - begin);
        } catch (error) {
          if (errors === 0) console.error(`  ${scenario.name}: ${(error as Error).message}`);
          errors += 1;
        }
      },
    );
    const seconds = (performance.now() - started) / 1000;
    return { scenario: scenario.name, concurrency, ...summarize(latencies, errors, seconds) };
  } finally {
    t.agent.destroy();
  }
}
