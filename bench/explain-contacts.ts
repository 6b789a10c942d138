/**
 * `npx tsx bench/explain-contacts.ts`: the contact search's plans as the table grows (issue 10 item 3).
 * For each size (BENCH_CONTACT_SIZES, default 20000,200000) a fresh PostgreSQL database
 * (BENCH_PG_URL) gets the migrations and that many contacts, then EXPLAIN ANALYZE shows the page and
 * count of the search the server runs (contacts.repo's statements, with the bench's term and a short one),
 * analyzed, then again after BENCH_CONTACT_BURST (2700) new contacts without ANALYZE (issue 24 item 3).
 */
import type { Database } from "../packages/server/src/db/client.js";
import { listMigrations } from "../packages/server/src/db/migrate.js";
import { contactSearchSql } from "../packages/server/src/modules/contacts/contacts.repo.js";
import { CONTACT_TERM } from "./corpus.js";
import { insertContactsSql } from "./generate.js";
import { withScratchDatabase } from "./scratch-db.js";

const sizes = (process.env.BENCH_CONTACT_SIZES ?? "20000,200000").split(",").map(Number);
const terms = [CONTACT_TERM, "55000001", "an"];
const burst = Number(process.env.BENCH_CONTACT_BURST ?? "2700");

async function explainAt(size: number) {
  await withScratchDatabase(`zapdesk_contacts_${size}`, { poolSize: 1 }, async (database) => {
    // BENCH_CONTACT_KEY=0006: the search key as migration 0006 defined it (an inlined SQL function), before 0040.
    if (process.env.BENCH_CONTACT_KEY === "0006") {
      const lean = listMigrations().find((m) => m.name === "0006_lean_indexes");
      const key = lean?.statements.find((s) => s.includes("CREATE FUNCTION zapdesk_contact_search_key"));
      if (!key) throw new Error("0006's search key not found");
      await database.exec(key.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"));
    }
    await database.exec(insertContactsSql(size));
    await database.exec("alter table contacts set (autovacuum_enabled = false)");
    await database.exec("analyze contacts");
    await explainTerms(database, `${size} contacts`);
    // Issue 24 item 3: a burst of new customers before the next ANALYZE.
    await database.exec(`insert into contacts (id, name, number)
      select ${size} + i, 'Customer ' || i, '5711' || lpad(i::text, 8, '0') from generate_series(1, ${burst}) i`);
    await explainTerms(database, `${size} contacts analyzed, then ${burst} new ones`);
  });
}

async function explainTerms(database: Database, label: string) {
  for (const term of terms) {
    for (const [part, statement] of Object.entries(contactSearchSql(database.db, term))) {
      const rows = await database.query<{ "QUERY PLAN": string }>(
        `explain (analyze, costs off) ${statement.sql}`,
        statement.params,
      );
      const plan = rows.map((r) => r["QUERY PLAN"]);
      console.log(`\n## ${label}, "${term}", ${part}\n${plan.join("\n")}`);
    }
  }
}

for (const size of sizes) await explainAt(size);
