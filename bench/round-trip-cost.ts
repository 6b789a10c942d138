/**
 * `npx tsx bench/round-trip-cost.ts`: what a lone message's transaction pays for BEGIN's round trip and
 * for planning the inbound batch's tickets statement (issue 24). A fresh PostgreSQL database
 * (BENCH_PG_URL) gets the bench's data set at BENCH_SCALE (default 1); on one connection each case runs
 * BENCH_ROUND_RUNS times (default 2000), alternated over BENCH_ROUND_ROUNDS rounds (default 3), and
 * Node's CPU (process.cpuUsage) and the backend's (/proc/<pid>/stat, 10 ms ticks) are divided by the runs.
 *
 * - "BEGIN on its own": `begin`, a one-parameter statement, `commit`, three round trips (before
 *   db/begin-pipeline.ts); "BEGIN with the statement": the same through drizzle's transaction, two.
 * - The tickets statement (inbound-batch-sql.ts `findOrOpenTickets`, an existing customer's open
 *   ticket found and locked) under `plan_cache_mode = force_custom_plan`, what every execution got
 *   before the id list was `opaque`, and under the default, the generic plan it now keeps.
 * - A lone message stored by the inbound batch (`storeBatch`, its whole transaction), for a known
 *   customer and a new one, run first (see `cases`); then, as a diagnostic, the same with `session_replication_role = replica`
 *   (no triggers, no foreign-key checks): what the triggers and checks cost.
 */
import { sql } from "drizzle-orm";
import { systemClock } from "../packages/server/src/lib/clock.js";
import { storeBatch } from "../packages/server/src/modules/messages/inbound-batch.js";
import { findOrOpenTickets } from "../packages/server/src/modules/messages/inbound-batch-sql.js";
import { withOneConnection } from "./one-connection.js";

const scale = Number(process.env.BENCH_SCALE ?? "1");
const runs = Number(process.env.BENCH_ROUND_RUNS ?? "2000");
const rounds = Number(process.env.BENCH_ROUND_ROUNDS ?? "3");

async function main() {
  await withOneConnection("zapdesk_round_trip", scale, async ({ database, client, perRun }) => {
    const [open] = (
      (await database.db.execute(
        sql`select t.whatsapp_id, c.number from tickets t join contacts c on c.id = t.contact_id where t.status = 'open' order by t.id limit 1`,
      )) as unknown as { rows: { whatsapp_id: number; number: string }[] }
    ).rows;
    const since = new Date(Date.now() - 2 * 3600_000);
    const findTicket = () =>
      database.db.transaction(async (tx) => {
        const { rows } = await findOrOpenTickets(tx, open.whatsapp_id, [open.number], since);
        if (rows.length !== 1 || rows[0].created) throw new Error("the open ticket was not found");
      });

    // A lone message as the inbound batch stores it: on a connection with one queue and no menu.
    const [line] = (
      (await database.db.execute(
        sql`insert into whatsapps (name, provider) values ('Round trips', 'simulator') returning id`,
      )) as unknown as { rows: { id: number }[] }
    ).rows;
    const [known] = (
      (await database.db.execute(sql`select number from contacts order by id limit 1`)) as unknown as {
        rows: { number: string }[];
      }
    ).rows;
    let sent = 0;
    const lone = (chat: () => string) => async () => {
      sent += 1;
      const item = {
        wid: `rt-${sent}`,
        chat: chat(),
        isGroup: false,
        fromMe: false,
        timestamp: new Date(),
        type: "chat",
        body: `mensagem ${sent}`,
      };
      const [stored] = await storeBatch(database.db, systemClock, line.id, [{ ...item, sender: { number: item.chat } }], 7200);
      if (!stored) throw new Error("the message was not stored");
    };
    const knownCustomer = lone(() => known.number);
    const newCustomer = lone(() => `5599${String(1e8 + sent)}`);
    // A case's setting is the connection's for its whole loop (set before, reset after, not measured).
    // The lone messages first: PostgreSQL picks a statement's plan on its first executions in a
    // session and keeps a generic one once chosen, so the tickets statement's cases, run first, hid
    // that a lone message's own statements were still planned every time (docs/benchmarks.md, 2026-12-07).
    const cases: [string, () => Promise<unknown>, string?][] = [
      ["a lone message, a known customer's open ticket (storeBatch)", knownCustomer],
      ["a lone message, a new customer (storeBatch)", newCustomer],
      [
        "BEGIN on its own (begin, select $1, commit)",
        async () => {
          await client.query("begin");
          await client.query({ name: "round_trip_probe", text: "select $1::int as n", values: [1] });
          await client.query("commit");
        },
      ],
      [
        "BEGIN with the statement (transaction: select $1, commit)",
        () => database.db.transaction((tx) => tx.execute(sql`select ${1}::int as n`)),
      ],
      ["tickets statement, planned every time (force_custom_plan)", findTicket, "force_custom_plan"],
      ["tickets statement, generic plan kept (default)", findTicket],
    ];
    // Diagnostics: the same without triggers and foreign-key checks (session_replication_role).
    const diagnostics: [string, () => Promise<unknown>, string][] = [
      ["  the same, known customer, no triggers or foreign-key checks", knownCustomer, "replica"],
      ["  the same, new customer, no triggers or foreign-key checks", newCustomer, "replica"],
    ];
    const setting = (mode: string) => (mode === "replica" ? "session_replication_role = replica" : `plan_cache_mode = ${mode}`);
    const measure = async (run: () => Promise<unknown>, mode?: string) => {
      if (mode) await client.query(`set ${setting(mode)}`);
      try {
        const { node, db } = await perRun(run, runs, 20);
        return { node, db };
      } finally {
        if (mode) await client.query(`reset ${setting(mode).split(" ")[0]}`);
      }
    };
    const results = new Map<string, { node: number; db: number }[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const [label, run, mode] of [...cases, ...diagnostics]) {
        const result = await measure(run, mode);
        results.set(label, [...(results.get(label) ?? []), result]);
      }
    }
    const fmt = (n: number) => n.toFixed(3);
    console.log(`scale ${scale}, ${runs} runs a case, ${rounds} rounds; CPU ms a run, node · database`);
    for (const [label, list] of results) {
      console.log(`| ${label} | ${list.map((r) => `${fmt(r.node)} · ${fmt(r.db)}`).join(", ")} |`);
    }
  });
}

await main();
