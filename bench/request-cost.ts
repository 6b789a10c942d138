/**
 * `npx tsx bench/request-cost.ts`: what one HTTP request costs the server's Node process beside what
 * its work costs (issue 24 item 1). The real app (bench/app-config.ts) on a scratch PostgreSQL
 * database (BENCH_PG_URL) with the bench's data set at BENCH_SCALE (default 0.01); a client in a
 * process of its own sends BENCH_REQUEST_RUNS requests a case (default 1500) one at a time over a
 * kept-alive connection, after 50 to warm up, and the server's CPU (process.cpuUsage) is divided by
 * them. Cases, alternated over BENCH_REQUEST_ROUNDS rounds (default 2), all or those BENCH_REQUEST_CASES
 * names by number (e.g. "1,2"):
 * - a token-checked request to a route that does not exist (the 404 of the API's tail): what any
 *   request pays before its handler;
 * - GET /api/queue: a small list read from the database;
 * - a customer's lone message over HTTP (POST /api/simulator/:id/inbound), each from a new number;
 * - the same message handed to the simulator's hub in process: the message's own work without HTTP.
 */
import { Agent, request } from "node:http";
import { withInProcessApp } from "./in-process-app.js";

interface Ask {
  port: number;
  method: string;
  path: string;
  token: string;
  /** POST a lone message from a new number each time. */
  inbound?: boolean;
  runs: number;
}

const newNumber = (prefix: string) => `${prefix}${String(1e8 + Math.floor(Math.random() * 9e7))}`;

/** The client's side: `runs` requests one after another, answering with the last status. */
async function client() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (ask: Ask, i: number) =>
    new Promise<number>((resolve, reject) => {
      const body = ask.inbound ? JSON.stringify({ from: newNumber("5597"), body: `mensagem ${i}` }) : undefined;
      const headers: Record<string, string | number> = { authorization: `Bearer ${ask.token}` };
      if (body) Object.assign(headers, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      const req = request({ host: "127.0.0.1", port: ask.port, method: ask.method, path: ask.path, agent, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(body);
    });
  process.on("message", async (ask: Ask) => {
    let status = 0;
    for (let i = 0; i < ask.runs; i++) status = await send(ask, i);
    process.send?.({ status });
  });
}

async function main() {
  const scale = Number(process.env.BENCH_SCALE ?? "0.01");
  const runs = Number(process.env.BENCH_REQUEST_RUNS ?? "1500");
  const rounds = Number(process.env.BENCH_REQUEST_ROUNDS ?? "2");
  const none = async () => {};
  await withInProcessApp("zapdesk_request_cost", scale, import.meta.url, none, async ({ data, handle, port, child }) => {
    while (!handle.sessions.isConnected(data.ingestWhatsappId)) await new Promise((resolve) => setTimeout(resolve, 20));
    const token = await handle.services.tokens.signAccess(data.adminId);
    const ask = (message: Ask) =>
      new Promise<number>((resolve) => {
        child.once("message", (reply) => resolve((reply as { status: number }).status));
        child.send(message);
      });
    const measure = async (work: (n: number) => Promise<unknown>) => {
      await work(50);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = await work(runs);
      const used = process.cpuUsage(cpu);
      return { result, node: (used.user + used.system) / 1000 / runs, wall: (performance.now() - started) / runs };
    };
    const http =
      (method: string, path: string, inbound = false) =>
      (n: number) =>
        ask({ port, method, path, token, inbound, runs: n });
    const cases: [string, (n: number) => Promise<unknown>][] = [
      ["a token-checked request, 404", http("GET", "/api/no-such-route")],
      ["GET /api/queue", http("GET", "/api/queue")],
      ["a lone message over HTTP", http("POST", `/api/simulator/${data.ingestWhatsappId}/inbound`, true)],
      [
        "the same, handed to the hub in process",
        async (n) => {
          for (let i = 0; i < n; i++) {
            await handle.simulator.inbound(data.ingestWhatsappId, { from: newNumber("5596"), body: `mensagem ${i}` });
          }
        },
      ],
    ];
    const picked = process.env.BENCH_REQUEST_CASES?.split(",").map(Number);
    const chosen = picked ? cases.filter((_, i) => picked.includes(i + 1)) : cases;
    console.log(`scale ${scale}, ${runs} requests a case, ${rounds} rounds; server Node CPU ms a request · wall ms`);
    for (let round = 1; round <= rounds; round++) {
      for (const [label, work] of chosen) {
        const { result, node, wall } = await measure(work);
        const status = typeof result === "number" ? ` (status ${result})` : "";
        console.log(`| ${label}${status} | round ${round} | ${node.toFixed(3)} · ${wall.toFixed(3)} |`);
      }
    }
  });
}

if (process.argv[2] === "client") await client();
else await main();
