import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/harness.js";
import { findOrOpenTickets } from "../modules/messages/inbound-batch-sql.js";
import { type Database, openDatabase } from "./client.js";

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/**
 * Issue 24: a hot statement whose plan does not depend on its values settles on PostgreSQL's generic
 * plan after five executions, instead of being planned anew every time (prepared.ts, `opaque`). A
 * one-connection pool, so every execution lands on the session that holds the statement.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let one: Database;
let whatsappId: number;
let contactIds: number[];

beforeAll(async () => {
  database = await openTestDatabase();
  one = await openDatabase({ url: database.url, poolSize: 1, connectTimeoutMs: 5000 });
  [{ id: whatsappId }] = rowsOf(await one.db.execute(sql`insert into whatsapps (name) values ('Plans') returning id`)) as {
    id: number;
  }[];
  contactIds = rowsOf(
    await one.db.execute(
      sql`insert into contacts (name, number) select 'C' || n, '55119' || lpad(n::text, 8, '0') from generate_series(1, 2000) n returning id`,
    ),
  ).map((r) => r.id as number);
  // A live database's proportions: a few closed tickets per customer, 2.5 on average.
  await one.db.execute(
    sql`insert into tickets (contact_id, whatsapp_id, status, updated_at)
      select id, ${whatsappId}, 'closed', now() - interval '30 days' from contacts, generate_series(1, 1 + id % 4)`,
  );
  // Statistics as a live database has them: the planner's estimates are what this is about.
  await one.db.execute(sql`analyze`);
});
afterAll(async () => {
  await one.close();
  await database.close();
  await database.drop();
});

async function plansOf(name: string) {
  const [row] = rowsOf(
    await one.db.execute(
      sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where name = ${name}`,
    ),
  );
  return row;
}

describe("the plan cache", () => {
  it("keeps the inbound batch's tickets statement on its generic plan, for one contact or several", async () => {
    for (let i = 0; i < 9; i++) {
      const ids = i % 2 ? [contactIds[1 + i]] : [contactIds[1 + i], contactIds[2 + i]];
      await one.db
        .transaction(async (tx) => {
          const { rows } = await findOrOpenTickets(tx, whatsappId, ids, new Date(Date.now() - 3600_000));
          expect(rows.filter((r) => r.created).map((r) => r.ticket.contactId)).toEqual(ids);
          throw new Error("roll back");
        })
        .catch((error: Error) => expect(error.message).toBe("roll back"));
    }
    expect(await plansOf("inbound_batch_tickets")).toEqual({ custom: 5, generic: 4 });
  });
});
