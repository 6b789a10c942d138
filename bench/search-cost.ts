/**
 * `npx tsx bench/search-cost.ts`: where a ticket search's database CPU goes (issue 10 item 2).
 * A fresh PostgreSQL database (BENCH_PG_URL) gets the bench's data set at BENCH_SCALE (default 1);
 * then, on one connection, each stage of the search the bench measures (an agent with two queues
 * looking for the probe word) runs BENCH_SEARCH_RUNS times (default 200) as a prepared statement,
 * and the backend's own CPU time (/proc/<pid>/stat) is divided by the runs. Each stage is the
 * previous one plus one step, so the differences are the steps' costs. The last rows are the
 * server's own statement (ticket-list.repo searchPage, with its plan) and the whole listTickets call.
 */
import { listTickets, searchPage } from "../packages/server/src/modules/tickets/ticket-list.repo.js";
import { PROBE_WORD } from "./corpus.js";
import { withOneConnection } from "./one-connection.js";

const scale = Number(process.env.BENCH_SCALE ?? "1");
const runs = Number(process.env.BENCH_SEARCH_RUNS ?? "200");

const matched = `select ticket_id as id from messages where search @@ (select zapdesk_search_query($1))
  union select id from tickets where contact_id in (select id from contacts where name ilike $2 or number ilike $3)`;
const access = "(tickets.user_id = $4 or tickets.queue_id is null or tickets.queue_id = any($5::int[]))";
const stages: [string, string][] = [
  [
    "messages with the word (GIN bitmap, one heap visit per message)",
    "select count(*) from messages where search @@ (select zapdesk_search_query($1))",
  ],
  ["+ their tickets, deduplicated, with the contacts matched by name or number", `select count(*) from (${matched}) m`],
  [
    "+ each matched ticket looked up and checked against the agent's access (the count)",
    `select count(*) from (${matched}) m cross join lateral
      (select tickets.id from tickets where tickets.id = m.id and ${access} offset 0) hit`,
  ],
  [
    "+ the page: top 40 by last activity",
    `select hit.id, count(*) over () from (${matched}) m cross join lateral
      (select tickets.id, tickets.updated_at from tickets where tickets.id = m.id and ${access} offset 0) hit
      order by hit.updated_at desc, hit.id desc limit 40`,
  ],
  // Issue 24: the matched ids once, then the count up to the cap, and the page walked newest first.
  [
    "issue 24: the count, matched tickets looked up until 1,001 pass (search-hits.ts)",
    `with matched as materialized (${matched}) select count(*) from (select 1 from matched cross join lateral
      (select tickets.id from tickets where tickets.id = matched.id and ${access} offset 0) hit limit 1001) x`,
  ],
  [
    "issue 24: the page, tickets walked newest first until 40 are in the matches (search-hits.ts)",
    `with matched as materialized (${matched}) select tickets.id from tickets
      where (tickets.id in (select id from matched)) is true and ${access}
      order by tickets.updated_at desc nulls first, tickets.id desc nulls first limit 40`,
  ],
];

async function main() {
  await withOneConnection("zapdesk_search", scale, async ({ database, data, client, perRun }) => {
    const dbPerRun = async (run: () => Promise<unknown>) => (await perRun(run, runs)).db;
    const agentQueues = [data.queueIds[0], data.queueIds[1]];
    const values = [PROBE_WORD, `%${PROBE_WORD}%`, `%${PROBE_WORD}%`, data.agentIds[0], agentQueues];
    const rows: [string, number][] = [];
    for (const [i, [label, text]] of stages.entries()) {
      const arity = Math.max(...[...text.matchAll(/\$(\d)/g)].map((m) => Number(m[1])));
      rows.push([label, await dbPerRun(() => client.query({ name: `search_stage_${i}`, text, values: values.slice(0, arity) }))]);
    }
    const actor = { id: data.agentIds[0], admin: false, queueIds: agentQueues, hideChoosing: true };
    const filter = { actor, showAll: false, search: PROBE_WORD };
    const statement = searchPage(database.db, filter, { limit: 40, offset: 0 }).toSQL();
    rows.push([
      "the server's search statement (page, count, joins, matched message)",
      await dbPerRun(() => client.query({ name: "search_page", text: statement.sql, values: statement.params })),
    ]);
    rows.push([
      "the server's whole list call (statement and tags)",
      await dbPerRun(() => listTickets(database.db, filter, { limit: 40, offset: 0 })),
    ]);
    const plan = await database.query<{ "QUERY PLAN": string }>(
      `explain (analyze, costs off) ${statement.sql}`,
      statement.params,
    );
    console.log(`\nThe server's search statement:\n${plan.map((r) => r["QUERY PLAN"]).join("\n")}`);
    console.log(`\nScale ${scale}, "${PROBE_WORD}", ${runs} runs each, database CPU per run:\n`);
    console.log("| stage | CPU ms |\n|---|---:|");
    for (const [label, ms] of rows) console.log(`| ${label} | ${ms.toFixed(2)} |`);
  });
}

await main();
