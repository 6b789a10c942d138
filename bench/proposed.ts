import type { Database } from "../packages/server/src/db/client.js";

/**
 * BENCH_PROPOSED_INDEXES=1: the index changes proposed in docs/benchmarks.md, applied to the
 * benchmark's own throwaway database only (the schema in packages/server is not touched), so their
 * effect can be measured end to end over HTTP before anyone writes the migration.
 * - every `DESC NULLS LAST` index column becomes plain `DESC`, the order drizzle's desc() asks for;
 * - tickets (status, user_id, queue_id) lets the inbox count run as an index-only scan.
 */
export async function applyProposedIndexes(database: Database): Promise<string[]> {
  const indexes = await database.query<{ name: string; def: string }>(
    `select indexname as name, indexdef as def from pg_indexes
     where schemaname = 'public' and tablename in ('tickets', 'messages') and indexdef like '%NULLS LAST%'`,
  );
  const applied: string[] = [];
  for (const index of indexes) {
    const def = index.def.replaceAll(" DESC NULLS LAST", " DESC");
    await database.exec(`drop index "${index.name}"; ${def}`);
    applied.push(def);
  }
  const covering = "create index bench_tickets_status_user_queue on tickets (status, user_id, queue_id)";
  await database.exec(covering);
  applied.push(covering);
  await database.exec("vacuum analyze tickets");
  await database.exec("vacuum analyze messages");
  return applied;
}
