/**
 * Baileys ingest, in process: the whole server (pipeline, session manager, durable inbound log)
 * with one QR connection whose socket is the test suite's FakeSocket, fed `messages.upsert`
 * events as Baileys emits them. Reports Node CPU ms, database CPU ms (PostgreSQL backends) and
 * SQL statements (every round trip, BEGIN/COMMIT included) per message, for two shapes:
 *
 * - "one upsert at a time": an upsert of BENCH_BAILEYS_BURST messages from as many contacts,
 *   the next one emitted once every message of the previous is stored and its log row done;
 * - "flush": BENCH_BAILEYS_FLUSH such upserts emitted back to back (the offline messages Baileys
 *   flushes after a reconnect), then waited for.
 *
 *   BENCH_ENGINE=postgres|embedded BENCH_BAILEYS_MESSAGES=2000 npx tsx bench/ingest-baileys.ts
 *
 * PostgreSQL: a uniquely named database on BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped afterwards. Completion is watched with one count query every 10 ms; those queries are
 * subtracted from the statement count, and their CPU (measured first, 200 checks on the idle
 * connection) from the CPU figures.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { proto, type WAMessage } from "@whiskeysockets/baileys";
import { and, eq, sql } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "../packages/server/src/app.js";
import { openDatabase } from "../packages/server/src/db/client.js";
import { migrate } from "../packages/server/src/db/migrate.js";
import { inboundEvents } from "../packages/server/src/db/schema.js";
import { seed } from "../packages/server/src/db/seed.js";
import { fakeBaileys } from "../packages/server/test/baileys/baileys-test-rig.js";
import { insertConnection } from "../packages/server/test/channel-support.js";
import { benchConfig } from "./app-config.js";
import { countQueries, cpuSampler } from "./cpu.js";

const engine = (process.env.BENCH_ENGINE ?? "postgres") as "postgres" | "embedded";
const total = Number(process.env.BENCH_BAILEYS_MESSAGES ?? "2000");
const burst = Number(process.env.BENCH_BAILEYS_BURST ?? "10");
const flush = Number(process.env.BENCH_BAILEYS_FLUSH ?? "20");
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const run = randomBytes(3).toString("hex").toUpperCase();

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let serial = 0;
/** A customer's text as Baileys' decoder builds it. */
function customerText(number: string, body: string): WAMessage {
  serial += 1;
  return {
    key: { remoteJid: `${number}@s.whatsapp.net`, fromMe: false, id: `3B${run}${String(serial).padStart(7, "0")}` },
    messageTimestamp: Math.floor(Date.now() / 1000),
    pushName: `Customer ${number.slice(-4)}`,
    message: proto.Message.fromObject({ conversation: body }),
  };
}

async function main() {
  countQueries();
  let dbName: string | undefined;
  let dataDir: string | undefined;
  let url: string | undefined;
  if (engine === "postgres") {
    dbName = `bench_baileys_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const parsed = new URL(adminUrl);
    parsed.pathname = `/${dbName}`;
    url = parsed.toString();
  } else dataDir = mkdtempSync(join(tmpdir(), "bench-baileys-"));
  const database = await openDatabase(url ? { url } : { dataDir: dataDir as string });
  try {
    await migrate(database);
    await seed(database.db, { email: "admin@bench.test", password: randomBytes(9).toString("hex"), name: "Bench admin" });
    const whatsappId = await insertConnection(database.db, "baileys");
    const fake = fakeBaileys();
    const workDir = mkdtempSync(join(tmpdir(), "bench-baileys-files-"));
    const config = benchConfig(workDir, url);
    const handle = await buildApp({ config, database, logger: false, factories: { baileys: fake.factory } });
    await handle.app.ready();
    await handle.start();
    await waitFor(() => fake.sockets.length > 0, 10_000, "the Baileys socket");
    const socket = fake.sockets[0];
    socket.open();
    await waitFor(() => handle.sessions.isConnected(whatsappId), 10_000, "the connection");

    let polls = 0;
    const doneCount = async () => {
      polls += 1;
      const [row] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(inboundEvents)
        .where(and(eq(inboundEvents.whatsappId, whatsappId), eq(inboundEvents.status, "done")));
      return row.n;
    };
    const sample = cpuSampler(database);
    // What one completion check costs on an idle connection, subtracted from the figures below.
    const calibrate = await sample();
    for (let i = 0; i < 200; i += 1) await doneCount();
    const calibrated = await sample();
    const pollNodeMs = (calibrated.nodeMs - calibrate.nodeMs) / 200;
    const pollDbMs = (calibrated.dbMs - calibrate.dbMs) / 200;
    const contacts = 100;
    let next = 0;
    const upsert = () => {
      const messages = Array.from({ length: burst }, () => {
        const n = next++;
        return customerText(`5521${run.length}${String(n % contacts).padStart(7, "0")}`, `message ${n}`);
      });
      socket.ev.emit("messages.upsert", { messages, type: "notify" });
    };

    // Warm up (contacts and tickets exist for every number afterwards), not measured.
    for (let i = 0; i < contacts / burst; i += 1) upsert();
    await waitFor(async () => (await doneCount()) >= next, 120_000, "the warm-up");

    const shapes: { name: string; emit: () => number }[] = [
      {
        name: "one upsert at a time",
        emit: () => {
          upsert();
          return burst;
        },
      },
      {
        name: `flush of ${flush} upserts`,
        emit: () => {
          for (let i = 0; i < flush; i += 1) upsert();
          return flush * burst;
        },
      },
    ];
    const results: Record<string, unknown>[] = [];
    for (const shape of shapes) {
      const before = await sample();
      const pollsBefore = polls;
      const started = performance.now();
      let sent = 0;
      while (sent < total) {
        sent += shape.emit();
        await waitFor(async () => (await doneCount()) >= next, 120_000, shape.name);
      }
      const seconds = (performance.now() - started) / 1000;
      const after = await sample();
      const checks = polls - pollsBefore;
      const statements = after.queries - before.queries - checks;
      results.push({
        engine,
        shape: shape.name,
        messages: sent,
        "msg/s": Math.round(sent / seconds),
        "node CPU ms/msg": +((after.nodeMs - before.nodeMs - checks * pollNodeMs) / sent).toFixed(3),
        "db CPU ms/msg": +((after.dbMs - before.dbMs - checks * pollDbMs) / sent).toFixed(3),
        checks,
        "SQL/msg": +(statements / sent).toFixed(2),
      });
    }
    const [stored] = await database.query<{ n: number }>("select count(*)::int as n from messages where whatsapp_id = $1", [
      whatsappId,
    ]);
    console.table(results);
    console.log(`stored ${stored.n} messages for ${next} emitted (each once: ${stored.n === next})`);
    await handle.app.close();
    rmSync(workDir, { recursive: true, force: true });
  } finally {
    await database.close().catch(() => {});
    if (dbName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
