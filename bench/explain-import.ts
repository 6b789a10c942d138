/**
 * `npx tsx bench/explain-import.ts`: where our database's time goes when the importer writes a batch
 * of messages. Migrates a scratch database, fills contacts and tickets, then writes batches of
 * messages as the importer does (one INSERT … SELECT per batch, then its import_map rows) under
 * EXPLAIN ANALYZE, and prints the last batch's plan: the time of the insert itself (heap, indexes,
 * search column) and of each trigger (foreign keys, first response).
 *
 * Also prints the CPU seconds the backend spent on all the batches (from /proc: the figure a loaded
 * machine does not change much), so that variants can be compared: BENCH_EXPLAIN_GIN_LIMIT sets
 * the session's gin_pending_list_limit (e.g. 64MB) for the search index's pending list.
 *
 * Env: BENCH_PG_URL, BENCH_EXPLAIN_BATCH (5000), BENCH_EXPLAIN_BATCHES (10), BENCH_EXPLAIN_GIN_LIMIT.
 */
import { readFile } from "node:fs/promises";
import { withScratchDatabase } from "./scratch-db.js";

const batch = Number(process.env.BENCH_EXPLAIN_BATCH ?? 5000);
const batches = Number(process.env.BENCH_EXPLAIN_BATCHES ?? 10);
const ginLimit = process.env.BENCH_EXPLAIN_GIN_LIMIT;

async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

// One connection: every batch runs in the same backend, whose CPU time is read before and after.
await withScratchDatabase("zapdesk_bench_explain_import", { poolSize: 1 }, async (database) => {
  await database.exec(`insert into whatsapps (id, name) values (1, 'Bench');
    insert into users (id, name, email, password_hash) select g, 'Agent ' || g, 'a' || g || '@b.test', 'x' from generate_series(1, 20) g;
    insert into contacts (id, name, number) select g, 'Cliente ' || g, (5511900000000 + g)::text from generate_series(1, 20000) g;
    insert into tickets (id, status, contact_id, user_id, whatsapp_id, created_at)
      select g, 'closed', 1 + (g % 20000), 1 + (g % 20), 1, now() - interval '30 days' from generate_series(1, 50000) g;
    analyze`);
  if (ginLimit) await database.exec(`set gin_pending_list_limit = '${ginLimit}'`);
  const [{ pid }] = (await database.query<{ pid: number }>("select pg_backend_pid() as pid")) as [{ pid: number }];
  const cpuBefore = await cpuSeconds(pid);
  const started = Date.now();
  let plan: string[] = [];
  let mapPlan: string[] = [];
  for (let b = 0; b < batches; b++) {
    const from = b * batch + 1;
    const to = from + batch - 1;
    const rows = await database.query<{ "QUERY PLAN": string }>(
      `explain (analyze, buffers) insert into messages (wid, whatsapp_id, ticket_id, contact_id, user_id, body, from_me, read, ack, media_type, created_at, updated_at)
       select 'BAE5' || lpad(to_hex(g), 12, '0'), 1, 1 + (g % 50000), 1 + ((g % 50000) % 20000), case when g % 2 = 0 then 1 + (g % 20) end,
         'Mensagem número ' || g || ' com acentuação e emoji 😀', g % 2 = 0, true, 3, 'chat', now(), now()
       from generate_series(${from}, ${to}) g on conflict do nothing returning id`,
    );
    plan = rows.map((r) => r["QUERY PLAN"]);
    const map = await database.query<{ "QUERY PLAN": string }>(
      `explain (analyze, buffers) insert into import_map (source, entity, source_id, target_id, merged)
       select 'postgres/bench_src', 'message', (1 + (g % 50000)) || ':BAE5' || lpad(to_hex(g), 12, '0'), g, false
       from generate_series(${from}, ${to}) g on conflict do nothing`,
    );
    mapPlan = map.map((r) => r["QUERY PLAN"]);
  }
  // What the pending list still holds goes into the index too: part of the cost of the batches.
  await database.query("select gin_clean_pending_list('messages_search_idx'::regclass)");
  const cpu = (await cpuSeconds(pid)) - cpuBefore;
  console.log(
    `${batches} batches of ${batch} messages (gin_pending_list_limit ${ginLimit ?? "default"}): backend CPU ${cpu.toFixed(2)} s, wall ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(`messages, batch ${batches} of ${batch} rows:\n${plan.join("\n")}\n`);
  console.log(`import_map, batch ${batches}:\n${mapPlan.join("\n")}`);
});
