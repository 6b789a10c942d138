/**
 * `npx tsx bench/explain-contacts.ts`: the contact search's plans as the table grows (issue 10 item 3).
 * For each size (BENCH_CONTACT_SIZES, default 20000,200000) a fresh PostgreSQL database
 * (BENCH_PG_URL) gets the migrations and that many contacts, then EXPLAIN ANALYZE shows the page and
 * count of the search the server runs (contacts.repo's statements, with the bench's term and a short one).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase } from "../packages/server/src/db/client.js";
import { migrate } from "../packages/server/src/db/migrate.js";
import { contactSearchSql } from "../packages/server/src/modules/contacts/contacts.repo.js";
import { CONTACT_TERM } from "./corpus.js";
import { insertContactsSql } from "./generate.js";

const pgUrl = new URL(process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
if (!["127.0.0.1", "localhost", "[::1]"].includes(pgUrl.hostname)) throw new Error("BENCH_PG_URL must point at loopback");
const sizes = (process.env.BENCH_CONTACT_SIZES ?? "20000,200000").split(",").map(Number);
const terms = [CONTACT_TERM, "55000001", "an"];

async function explainAt(size: number) {
  const name = `zapdesk_contacts_${size}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 1 });
  try {
    await migrate(database);
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
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

for (const size of sizes) await explainAt(size);
