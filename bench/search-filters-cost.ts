/**
 * `npx tsx bench/search-filters-cost.ts`: a common word's ticket search (BENCH_SEARCH_WORD, default
 * "pedido", in 12 % of the messages) under the list's narrowing filters, as the server runs it
 * (`listTickets`), on one connection at BENCH_SCALE (default 1), for an agent with two queues and for
 * an admin: no filter, a day's tickets (the API's `date`, one day and thirty days ago) and a status.
 * Such filters leave few of the tickets the walk (search-hits.ts) passes, so it is where the walk's
 * limit and its end are tested. Each case runs BENCH_SEARCH_RUNS times (default 10) after 2 warm-up
 * runs; database CPU ms and wall ms a search, and the count found.
 */
import { listTickets } from "../packages/server/src/modules/tickets/ticket-list.repo.js";
import { withOneConnection } from "./one-connection.js";

const scale = Number(process.env.BENCH_SCALE ?? "1");
const runs = Number(process.env.BENCH_SEARCH_RUNS ?? "10");
const word = process.env.BENCH_SEARCH_WORD ?? "pedido";
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

await withOneConnection("zapdesk_search_filters", scale, async ({ database, data, perRun }) => {
  const agent = { id: data.agentIds[0], admin: false, queueIds: [data.queueIds[0], data.queueIds[1]], hideChoosing: true };
  const admin = { id: 1, admin: true, queueIds: [], hideChoosing: true };
  const filters = [
    ["none", {}],
    ["date 1 day ago", { date: day(1) }],
    ["date 30 days ago", { date: day(30) }],
    ["status closed", { status: "closed" }],
  ] as const;
  console.log(`Scale ${scale}, "${word}", ${runs} searches a case, one connection.\n`);
  console.log("| filter | user | count | database CPU ms | wall ms |\n|---|---|---:|---:|---:|");
  for (const [label, extra] of filters) {
    for (const [who, actor] of [
      ["agent", agent],
      ["admin", admin],
    ] as const) {
      const filter = { actor, showAll: false, search: word, ...extra };
      const { count } = await listTickets(database.db, filter, { limit: 40, offset: 0 });
      const { db, wall } = await perRun(() => listTickets(database.db, filter, { limit: 40, offset: 0 }), runs, 2);
      console.log(`| ${label} | ${who} | ${count} | ${db.toFixed(1)} | ${wall.toFixed(1)} |`);
    }
  }
});
