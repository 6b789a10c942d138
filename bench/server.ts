/**
 * The server under test, in a process of its own (spawned by run.ts): it owns the database
 * (the embedded PostgreSQL is started by it, as `npm start` does), generates the data set, listens on 127.0.0.1 and runs the
 * in-process parts of the benchmark (hub ingest, EXPLAIN) when the runner asks over IPC.
 * The load generator stays in the parent, so it does not share this event loop.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { buildApp } from "../packages/server/src/app.js";
import { openDatabase } from "../packages/server/src/db/client.js";
import { migrate } from "../packages/server/src/db/migrate.js";
import { automationRules } from "../packages/server/src/db/schema.js";
import { seed } from "../packages/server/src/db/seed.js";
import { benchConfig } from "./app-config.js";
import { countQueries, cpuSampler } from "./cpu.js";
import { explainAll } from "./explain.js";
import { generate } from "./generate.js";
import { runIngest } from "./ingest.js";
import { applyProposedIndexes } from "./proposed.js";
import type { Engine, FromServer, ToServer } from "./protocol.js";
import { withCpu } from "./stats.js";

const engine = process.env.BENCH_ENGINE as Engine;
const dataDir = process.env.BENCH_DATA_DIR ?? "";
const url = process.env.BENCH_DATABASE_URL;
const scale = Number(process.env.BENCH_SCALE ?? "1");
if (!dataDir || (engine === "postgres" && !url)) throw new Error("bench/server.ts is started by bench/run.ts");

const reply = (message: FromServer) => process.send?.(message);

async function waitFor(check: () => boolean, timeoutMs: number, what: string) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function main() {
  countQueries();
  const database = await openDatabase(engine === "postgres" ? { url } : { dataDir });
  await migrate(database);
  await seed(database.db, { email: "admin@bench.test", password: randomBytes(9).toString("hex"), name: "Bench admin" });
  const started = performance.now();
  const data = await generate(database, scale);
  if (process.env.BENCH_PROPOSED_INDEXES === "1") {
    const applied = await applyProposedIndexes(database);
    console.log(`[${engine}] proposed indexes applied to the bench database:\n  ${applied.join("\n  ")}`);
  }
  const generateMs = Math.round(performance.now() - started);
  await addRules(database, data.adminId, Number(process.env.BENCH_RULES ?? "0"));

  const config = benchConfig(dataDir, url);
  const handle = await buildApp({
    config,
    database,
    logger: false,
    // Long enough for the whole run: an expiry mid-run would turn requests into 403s.
    accessTtlSeconds: 4 * 3600,
    simulator: { qrDelayMs: 0 },
  });
  await handle.app.listen({ host: "127.0.0.1", port: 0 });
  await handle.start();
  await waitFor(() => handle.sessions.isConnected(data.ingestWhatsappId), 10_000, "the simulator connection");

  const [{ version }] = await database.query<{ version: string }>("select version()");
  const port = (handle.app.server.address() as AddressInfo).port;
  const tokens = {
    agent: await handle.services.tokens.signAccess(data.agentIds[0]),
    admin: await handle.services.tokens.signAccess(data.adminId),
    // Agents 0 and 3 both hold the first queue, the ingest connection's (generate.ts).
    queueAgents: await Promise.all([data.agentIds[0], data.agentIds[3]].map((id) => handle.services.tokens.signAccess(id))),
    agents: await Promise.all(data.crowd.agentIds.map((id) => handle.services.tokens.signAccess(id))),
    admins: await Promise.all(data.crowd.adminIds.map((id) => handle.services.tokens.signAccess(id))),
  };
  const sampleCpu = cpuSampler(database);
  reply({ type: "ready", info: { engine, port, serverVersion: version, data, generateMs, tokens } });

  process.on("message", (message: ToServer) => {
    void (async () => {
      try {
        if (message.type === "ingest") {
          const result = await withCpu(sampleCpu, () =>
            runIngest(async (input) => {
              await handle.simulator.inbound(data.ingestWhatsappId, input);
            }, message.options).then(async (result) => {
              // BENCH_RULES: the rules' worker handles what the ingest queued, inside the measured span.
              while ((await handle.ruleWorker.drain()) > 0);
              return result;
            }),
          );
          // The simulated customers run in this process: their cost is already in the server's share.
          reply({ type: "ingest", result: { ...result, cpuPerOp: { ...result.cpuPerOp, client: 0 } } });
        } else if (message.type === "drainRules") {
          let events = 0;
          for (let n = await handle.ruleWorker.drain(); n > 0; n = await handle.ruleWorker.drain()) events += n;
          reply({ type: "drainRules", events });
        } else if (message.type === "check") {
          const [result] = await database.query<{ tickets: number; contacts: number; messages: number }>(
            `select count(distinct t.id)::int as tickets, count(distinct c.id)::int as contacts, count(m.id)::int as messages
             from contacts c join tickets t on t.contact_id = c.id join messages m on m.ticket_id = t.id
             where c.number like $1 || '%'`,
            [message.numberPrefix],
          );
          reply({ type: "check", result });
        } else if (message.type === "cpu") {
          reply({ type: "cpu", sample: await sampleCpu() });
        } else if (message.type === "explain") {
          reply({ type: "explain", plans: await explainAll(database, data) });
        } else if (message.type === "stop") {
          await handle.app.close();
          await database.close();
          reply({ type: "stopped" });
          // Exit explicitly so a requested CPU profile is written even if a timer is still pending.
          setTimeout(() => process.exit(0), 100);
        }
      } catch (error) {
        reply({ type: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
    })();
  });
}

/**
 * BENCH_RULES=N: N enabled automation rules on "a message arrives" (issue 23 §1), each with a text
 * condition that the corpus never holds: since migration 0044 the inbound path sees that no rule can
 * fire and queues nothing (rule-quiet.ts), counting the skips for the rules' log.
 * BENCH_RULES_CONDITION=status gives each rule a condition on the ticket instead (status closed, never
 * true of an inbound message's ticket): the inbound path decides it on the ticket as the message
 * leaves it, since no rule moves tickets (rule-quiet.ts, migration 0045), and queues nothing either.
 * BENCH_RULES_CONDITION=worker gives the same rules an action that moves tickets (return to the
 * queue), so the ticket conditions are the worker's: every message is queued for the rules and
 * evaluated by all N, the costliest case.
 */
async function addRules(database: Awaited<ReturnType<typeof openDatabase>>, adminId: number, n: number) {
  if (n <= 0) return;
  const kind = process.env.BENCH_RULES_CONDITION ?? "text";
  await database.db.insert(automationRules).values(
    Array.from({ length: n }, (_, i) => ({
      name: `Bench rule ${i + 1}`,
      enabled: true,
      trigger: "messageReceived",
      conditions:
        kind === "status" || kind === "worker"
          ? [{ type: "status" as const, statuses: ["closed" as const] }]
          : [{ type: "messageText" as const, op: "contains" as const, value: `zz-bench-rule-${i}` }],
      actions: kind === "worker" ? [{ type: "returnToQueue" as const }] : [{ type: "addNote" as const, body: "bench" }],
      maxPerHour: 3,
      runAsId: adminId,
    })),
  );
  console.log(`[${engine}] ${n} automation rules enabled (${kind} conditions)`);
}

main().catch((error) => {
  reply({ type: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 100);
});
