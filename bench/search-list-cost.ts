/**
 * `npx tsx bench/search-list-cost.ts`: a ticket search's database CPU and wall time as the server
 * runs it (ticket-list.repo `listTickets`: its prepared statement, then the tags), on one connection
 * at BENCH_SCALE (default 1), for an agent with two queues and for an admin, in two rounds. The words
 * (BENCH_SEARCH_WORDS, comma-separated) default to the bench's probe word, a contact's surname, a
 * word no message holds and a word in 12 % of the messages. Each case runs BENCH_SEARCH_RUNS times
 * (default 60) after 10 warm-up runs; the last lines are pg_prepared_statements' generic and custom
 * plans of the search statements (issue 24: the search is planned once, not on every search).
 */
import { listTickets } from "../packages/server/src/modules/tickets/ticket-list.repo.js";
import { CONTACT_TERM, PROBE_WORD } from "./corpus.js";
import { withOneConnection } from "./one-connection.js";

const scale = Number(process.env.BENCH_SCALE ?? "1");
const runs = Number(process.env.BENCH_SEARCH_RUNS ?? "60");
const words = (process.env.BENCH_SEARCH_WORDS ?? `${PROBE_WORD},${CONTACT_TERM},xyzzy,pedido`).split(",");

await withOneConnection("zapdesk_search_list", scale, async ({ database, data, client, perRun }) => {
  const agent = { id: data.agentIds[0], admin: false, queueIds: [data.queueIds[0], data.queueIds[1]], hideChoosing: true };
  const admin = { id: 1, admin: true, queueIds: [], hideChoosing: true };
  console.log(`Scale ${scale}, ${runs} searches a case, one connection.\n`);
  console.log("| round | user | words | database CPU ms | wall ms |\n|---|---|---|---:|---:|");
  for (const round of [1, 2]) {
    for (const [who, actor] of [
      ["agent", agent],
      ["admin", admin],
    ] as const) {
      for (const search of words) {
        const filter = { actor, showAll: false, search };
        const { db, wall } = await perRun(() => listTickets(database.db, filter, { limit: 40, offset: 0 }), runs);
        console.log(`| ${round} | ${who} | ${search} | ${db.toFixed(2)} | ${wall.toFixed(2)} |`);
      }
    }
  }
  const { rows } = await client.query(
    "select name, generic_plans, custom_plans from pg_prepared_statements where name like 'tickets_search%' order by name",
  );
  console.log("\n| statement | generic plans | custom plans |\n|---|---:|---:|");
  for (const row of rows) console.log(`| ${row.name} | ${row.generic_plans} | ${row.custom_plans} |`);
});
