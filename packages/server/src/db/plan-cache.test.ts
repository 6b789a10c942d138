import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, rowsOf } from "../../test/harness.js";
import { systemClock } from "../lib/clock.js";
import { storeBatch } from "../modules/messages/inbound-batch.js";
import { findOrOpenTickets } from "../modules/messages/inbound-batch-sql.js";
import { listTickets } from "../modules/tickets/ticket-list.repo.js";
import { type Database, openDatabase } from "./client.js";

/**
 * Issue 24: hot statements whose plan does not depend on their values settle on PostgreSQL's generic
 * plan after five executions, instead of being planned anew every time (prepared.ts, `opaque`): the
 * inbound batch's statements, the inbox's page and count, and the search's page. A
 * one-connection pool, so every execution lands on the session that holds the statement; a live
 * database's proportions and statistics, since the planner's estimates are what this is about.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let one: Database;
let whatsappId: number;
let contactIds: number[];
let numberOf: Map<number, string>;

beforeAll(async () => {
  database = await openTestDatabase();
  one = await openDatabase({ url: database.url, poolSize: 1, connectTimeoutMs: 5000 });
  [{ id: whatsappId }] = rowsOf(await one.db.execute(sql`insert into whatsapps (name) values ('Plans') returning id`)) as {
    id: number;
  }[];
  const written = rowsOf(
    await one.db.execute(
      sql`insert into contacts (name, number) select 'C' || n, '55119' || lpad(n::text, 8, '0') from generate_series(1, 2000) n returning id, number`,
    ),
  );
  contactIds = written.map((r) => r.id as number);
  numberOf = new Map(written.map((r) => [r.id as number, r.number as string]));
  // A live database's proportions: a few closed tickets per customer, 2.5 on average.
  await one.db.execute(
    sql`insert into tickets (contact_id, whatsapp_id, status, updated_at)
      select id, ${whatsappId}, 'closed', now() - interval '30 days' from contacts, generate_series(1, 1 + id % 4)`,
  );
  // Some waiting and open ones (one active ticket per customer), for the inbox.
  await one.db.execute(
    sql`update tickets set status = case when contact_id % 10 = 0 then 'pending' else 'open' end, updated_at = now()
      where id in (select min(id) from tickets group by contact_id) and contact_id % 5 = 0`,
  );
  // Statistics as a live database has them: the planner's estimates are what this is about.
  await one.db.execute(sql`analyze`);
});
afterAll(async () => {
  await one.close();
  await database.close();
  await database.drop();
});

async function plansOf(name: string, on: Database = one) {
  const [row] = rowsOf(
    await on.db.execute(
      sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where name = ${name}`,
    ),
  );
  return row;
}

describe("the plan cache", () => {
  it("keeps the inbound batch's tickets statement on its generic plan, for one contact or several", async () => {
    for (let i = 0; i < 9; i++) {
      // Customers without an active ticket (the inbox's test below gives every fifth one).
      const free = contactIds.filter((id) => id % 5 !== 0);
      const ids = i % 2 ? [free[i]] : [free[i], free[i + 1]];
      await one.db
        .transaction(async (tx) => {
          const numbers = ids.map((id) => numberOf.get(id) as string);
          const { rows } = await findOrOpenTickets(tx, whatsappId, numbers, new Date(Date.now() - 3600_000));
          expect(rows.filter((r) => r.created).map((r) => r.ticket.contactId)).toEqual(ids);
          throw new Error("roll back");
        })
        .catch((error: Error) => expect(error.message).toBe("roll back"));
    }
    expect(await plansOf("inbound_batch_tickets")).toEqual({ custom: 5, generic: 4 });
  });

  it("keeps every statement of a lone message on its generic plan, on a connection the statistics do not know yet", async () => {
    // A connection added after the last ANALYZE (a new number, or the bench's): the planner sees no
    // ticket of it, so each message's own plan looked cheaper than the generic one, which was never
    // kept (the tickets and touch statements were planned for every message). A session of its own:
    // the choice is made on a statement's first executions in a session, and the test above made them.
    const session = await openDatabase({ url: database.url, poolSize: 1, connectTimeoutMs: 5000 });
    try {
      const [{ id: fresh }] = rowsOf(
        await session.db.execute(sql`insert into whatsapps (name, provider) values ('Fresh', 'simulator') returning id`),
      ) as { id: number }[];
      const [known] = rowsOf(await session.db.execute(sql`select number from contacts order by id limit 1`)) as {
        number: string;
      }[];
      for (let i = 0; i < 9; i++) {
        // A known customer's open ticket, then a new customer's first message, in turn.
        const chat = i % 2 ? `55988${String(i).padStart(8, "0")}` : known.number;
        const item = { wid: `plan-${i}`, chat, isGroup: false, fromMe: false, timestamp: new Date(), type: "chat" };
        const [stored] = await storeBatch(
          session.db,
          systemClock,
          fresh,
          [{ ...item, body: `oi ${i}`, sender: { number: chat } }],
          7200,
        );
        expect(stored?.message.message.body).toBe(`oi ${i}`);
      }
      for (const name of ["inbound_batch_contacts", "inbound_batch_tickets", "inbound_batch_messages", "inbound_batch_touch"]) {
        expect({ name, ...(await plansOf(name, session)) }).toEqual({ name, custom: 5, generic: 4 });
      }
    } finally {
      await session.close();
    }
  });

  it("keeps the inbox's generic plans (page and count), whatever status is listed", async () => {
    const admin = { id: 1, admin: true, queueIds: [] };
    for (let i = 0; i < 9; i++) {
      const status = ["pending", "open", "closed"][i % 3];
      const { rows, count } = await listTickets(one.db, { actor: admin, status, showAll: true }, { limit: 40, offset: 0 });
      expect(rows.length).toBe(Math.min(40, count));
      expect(rows.every((r) => r.ticket.status === status)).toBe(true);
    }
    expect(await plansOf("tickets_inbox_ast")).toEqual({ custom: 5, generic: 4 });
    expect(await plansOf("tickets_inbox_ast_count")).toEqual({ custom: 5, generic: 4 });
  });

  it("keeps the search's generic plan, for words that match many tickets, a few or none", async () => {
    // Messages with words: every ticket says "pedido", one in ten "reembolso", one in a hundred "boleto".
    await one.db.execute(
      sql`insert into messages (ticket_id, contact_id, body)
        select id, contact_id, 'pedido' || case when id % 10 = 0 then ' reembolso' else '' end
          || case when id % 100 = 0 then ' boleto' else '' end from tickets`,
    );
    await one.db.execute(sql`analyze messages`);
    const agent = { id: 2, admin: false, queueIds: [1], hideChoosing: true };
    const found: number[] = [];
    for (let i = 0; i < 9; i++) {
      const search = ["pedido", "reembolso", "boleto", "nada", "C12"][i % 5];
      const { rows, count } = await listTickets(one.db, { actor: agent, showAll: false, search }, { limit: 40, offset: 0 });
      expect(rows.length).toBe(Math.min(40, count));
      found.push(count);
    }
    // Tickets without a queue are anyone's: the agent finds them all, up to the count's cap.
    expect(found.slice(0, 5)).toEqual([1000, expect.any(Number), expect.any(Number), 0, expect.any(Number)]);
    expect(found[2]).toBeGreaterThan(0);
    expect(found[4]).toBeGreaterThan(0);
    expect(await plansOf("tickets_search_uh")).toEqual({ custom: 5, generic: 4 });
  });
});
