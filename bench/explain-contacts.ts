/**
 * `npx tsx bench/explain-contacts.ts`: the contact search's plans as the table grows (issue 10 item 3).
 * For each size (BENCH_CONTACT_SIZES, default 20000,200000) a fresh PostgreSQL database
 * (BENCH_PG_URL) gets the migrations and that many contacts, then EXPLAIN ANALYZE shows the page and
 * count of the search the server runs (contacts.repo's statements, with the bench's term and a short one).
 */
import { contactSearchSql } from "../packages/server/src/modules/contacts/contacts.repo.js";
import { CONTACT_TERM } from "./corpus.js";
import { insertContactsSql } from "./generate.js";
import { withScratchDatabase } from "./scratch-db.js";

const sizes = (process.env.BENCH_CONTACT_SIZES ?? "20000,200000").split(",").map(Number);
const terms = [CONTACT_TERM, "55000001", "an"];

async function explainAt(size: number) {
  await withScratchDatabase(`zapdesk_contacts_${size}`, { poolSize: 1 }, async (database) => {
    await database.exec(insertContactsSql(size));
    await database.exec("analyze contacts");
    for (const term of terms) {
      for (const [part, statement] of Object.entries(contactSearchSql(database.db, term))) {
        const rows = await database.query<{ "QUERY PLAN": string }>(
          `explain (analyze, costs off) ${statement.sql}`,
          statement.params,
        );
        const plan = rows.map((r) => r["QUERY PLAN"]);
        console.log(`\n## ${size} contacts, "${term}", ${part}\n${plan.join("\n")}`);
      }
    }
  });
}

for (const size of sizes) await explainAt(size);
