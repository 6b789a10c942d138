/**
 * `npx tsx bench/inbox-plan-cost.ts`: what the inbox's statements cost the database per list, for each
 * shape of filter an agent or admin uses (issue 24). A fresh PostgreSQL database (BENCH_PG_URL) gets
 * the bench's data set at BENCH_SCALE (default 1); on one connection each case runs
 * BENCH_INBOX_RUNS times (default 300) after 10 warm-up runs, and Node's CPU and the backend's
 * (/proc/<pid>/stat, 10 ms ticks) are divided by the runs, with the wall time. BENCH_INBOX_MODE sets
 * `plan_cache_mode` for the connection (default: PostgreSQL's own choice).
 */
import { listTickets, type TicketFilter } from "../packages/server/src/modules/tickets/ticket-list.repo.js";
import { withOneConnection } from "./one-connection.js";

const scale = Number(process.env.BENCH_SCALE ?? "1");
const runs = Number(process.env.BENCH_INBOX_RUNS ?? "300");
const mode = process.env.BENCH_INBOX_MODE;

await withOneConnection("zapdesk_inbox_plans", scale, async ({ database, data, client, perRun }) => {
  if (mode) await client.query(`set plan_cache_mode = ${mode}`);
  const [{ id: tagId }] = await database.query<{ id: number }>(
    "insert into tags (name, color) values ('bench', '#123456') returning id",
  );
  await database.query("insert into ticket_tags (ticket_id, tag_id) select id, $1 from tickets where id % 20 = 0", [tagId]);
  const admin = { id: 1, admin: true, queueIds: [] as number[] };
  const agent = { id: data.agentIds[0], admin: false, queueIds: [data.queueIds[0], data.queueIds[1]], hideChoosing: true };
  const today = new Date().toISOString().slice(0, 10);
  const cases: [string, TicketFilter][] = [];
  for (const status of ["pending", "open", "closed"]) {
    cases.push([`admin, ${status}, all`, { actor: admin, status, showAll: true }]);
    cases.push([`agent, ${status}, own and unassigned`, { actor: agent, status, showAll: false }]);
  }
  cases.push(["agent, open, one queue ticked", { actor: agent, status: "open", showAll: true, queueIds: [data.queueIds[0]] }]);
  cases.push(["agent, pending, oldest first", { actor: agent, status: "pending", showAll: false, sort: "oldest" }]);
  cases.push(["agent, open, unread only", { actor: agent, status: "open", showAll: false, withUnreadMessages: true }]);
  cases.push(["admin, closed, one tag", { actor: admin, status: "closed", showAll: true, tagIds: [tagId] }]);
  cases.push(["admin, any status, created today", { actor: admin, showAll: true, date: today }]);
  console.log(`scale ${scale}, ${runs} runs a case, plan_cache_mode ${mode ?? "auto"}; CPU ms a list (node · database), wall ms`);
  for (const [label, filter] of cases) {
    const { node, db, wall } = await perRun(() => listTickets(database.db, filter, { limit: 40, offset: 0 }), runs);
    const f = (n: number) => n.toFixed(2);
    console.log(`| ${label} | ${f(node)} · ${f(db)} | ${f(wall)} |`);
  }
});
