import { eq, getTableColumns, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, rowsOf } from "../../test/harness.js";
import { ticketMessagesRead } from "../modules/messages/messages.repo.js";
import { listTickets, searchPage } from "../modules/tickets/ticket-list.repo.js";
import { joined, presentableTicketRead } from "../modules/tickets/tickets.repo.js";
import { compileRowMapper, fastRows } from "./fast-rows.js";
import { prepared, runRead } from "./prepared.js";
import { contacts, messages, tickets, users } from "./schema.js";

/**
 * Issue 24: the compiled row mapper (fast-rows.ts) gives what drizzle's own mapping gives, on the
 * same rows: nested objects, left joins that found nothing (null objects) or found a row with null
 * columns, aliased tables, timestamps, jsonb, numerics and `mapWith` decoders; and the hot paths'
 * prepared statements use it.
 */

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let ticketIds: number[];

beforeAll(async () => {
  database = await openTestDatabase();
  const { db } = database;
  const [{ id: userId }] = rowsOf<{ id: number }>(
    await db.execute(sql`insert into users (name, email, password_hash) values ('Agente', 'a@rows.test', 'x') returning id`),
  );
  const [{ id: queueId }] = rowsOf<{ id: number }>(
    await db.execute(sql`insert into queues (name, color) values ('Fila', '#123456') returning id`),
  );
  const [{ id: reasonId }] = rowsOf<{ id: number }>(
    await db.execute(sql`insert into closing_reasons (name) values ('Resolvido') returning id`),
  );
  await db.execute(sql`insert into contacts (name, number, profile_pic_url)
    select 'Cliente pedido ' || n, '5521' || lpad(n::text, 9, '0'), case when n % 2 = 0 then 'https://pic/' || n else '' end
    from generate_series(1, 6) n`);
  // Every combination the joins can give: with and without a queue, an agent, a closing reason.
  ticketIds = rowsOf<{ id: number }>(
    await db.execute(sql`insert into tickets (contact_id, status, queue_id, user_id, closing_reason_id, closing_at, closing_value, rating, updated_at)
      select c.id, case when c.id % 3 = 0 then 'closed' else 'open' end,
        case when c.id % 2 = 0 then ${queueId}::int end, case when c.id % 3 = 1 then ${userId}::int end,
        case when c.id % 3 = 0 then ${reasonId}::int end, case when c.id % 3 = 0 then now() end,
        case when c.id % 3 = 0 then 12.5 end, case when c.id % 4 = 0 then 5 end,
        now() - c.id * interval '1 minute'
      from contacts c order by c.id returning id`),
  ).map((r) => r.id);
  await db.execute(sql`insert into messages (ticket_id, contact_id, user_id, body, from_me, media_type, reactions, created_at)
    select t.id, case when m.k % 2 = 0 then t.contact_id end, case when m.k % 2 = 1 then ${userId}::int end,
      'mensagem ' || m.k || ' do pedido', m.k % 2 = 1, case when m.k = 3 then 'image' else 'chat' end,
      case when m.k = 2 then '[{"by":"x","emoji":"👍","fromMe":false,"name":"X"}]'::jsonb else '[]'::jsonb end,
      now() - (10 - m.k) * interval '1 second'
    from tickets t cross join generate_series(1, 4) m(k)`);
  // A reply quoting another message, so the aliased joins find a row.
  await db.execute(sql`update messages set quoted_msg_id = (select min(id) from messages m2 where m2.ticket_id = messages.ticket_id)
    where id in (select max(id) from messages group by ticket_id)`);
});
afterAll(async () => {
  await database?.close();
  await database?.drop();
});

/** The same select prepared twice: drizzle's mapping, then the compiled one. */
async function both<T extends { prepare(name: string): { execute(values?: Record<string, unknown>): Promise<unknown[]> } }>(
  name: string,
  query: T,
  values: Record<string, unknown> = {},
) {
  const plain = query.prepare(`${name}_plain`);
  const fast = fastRows(query.prepare(`${name}_fast`));
  expect((fast as unknown as { customResultMapper?: unknown }).customResultMapper, "compiled").toBeTypeOf("function");
  return { expected: await plain.execute(values), actual: await fast.execute(values) };
}

describe("compiled row mapping", () => {
  it("maps joined tickets as drizzle does, null joins included", async () => {
    const { expected, actual } = await both(
      "rows_tickets",
      joined(database.db, { extra: sql<number>`tickets.id * 2`.mapWith((v) => `n${v}`) }).where(sql`true`),
    );
    expect(expected).toHaveLength(ticketIds.length);
    expect(actual).toEqual(expected);
    const sample = actual as { queue: unknown; user: unknown; closingReason: unknown; ticket: { createdAt: unknown } }[];
    expect(sample.some((r) => r.queue === null) && sample.some((r) => r.queue !== null)).toBe(true);
    expect(sample.some((r) => r.user === null) && sample.some((r) => r.closingReason !== null)).toBe(true);
    expect(sample[0].ticket.createdAt).toBeInstanceOf(Date);
  });

  it("maps a search's page (a CTE, subqueries with decoders) as drizzle does", async () => {
    const filter = { actor: { id: 1, admin: true, queueIds: [] }, showAll: true, search: "pedido" };
    // Collected (no walk), then walked (visiting at most 10,000 tickets).
    for (const visits of [0, 10_000]) {
      const { expected, actual } = await both(
        `rows_search_${visits}`,
        searchPage(database.db, filter, { limit: 4, offset: 1 }, undefined, visits),
      );
      expect(expected).toHaveLength(4);
      expect(actual).toEqual(expected);
    }
  });

  it("maps messages with aliased left joins (a quoted message and its contact) as drizzle does", async () => {
    const quoted = alias(messages, "quoted");
    const quotedContact = alias(contacts, "quoted_contact");
    const { search: _search, ...columns } = getTableColumns(messages);
    const query = database.db
      .select({
        total: sql<number>`count(*) over ()`.mapWith(Number),
        message: columns,
        contact: { id: contacts.id, name: contacts.name },
        user: { id: users.id, name: users.name },
        quoted: { id: quoted.id, body: quoted.body, fromMe: quoted.fromMe },
        quotedContact: { id: quotedContact.id, number: quotedContact.number },
        ticketStatus: tickets.status,
      })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .leftJoin(contacts, eq(contacts.id, messages.contactId))
      .leftJoin(users, eq(users.id, messages.userId))
      .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
      .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId))
      .where(eq(messages.ticketId, sql.placeholder("ticketId")));
    const { expected, actual } = await both("rows_messages", query, { ticketId: ticketIds[1] });
    expect(expected).toHaveLength(4);
    expect(actual).toEqual(expected);
    const rows = actual as { quoted: unknown; contact: unknown; message: { reactions: unknown[] } }[];
    expect(rows.some((r) => r.quoted !== null) && rows.some((r) => r.quoted === null)).toBe(true);
    expect(rows.some((r) => r.contact === null)).toBe(true);
    expect(rows.some((r) => r.message.reactions.length === 1)).toBe(true);
  });

  it("leaves a shape it does not know to drizzle", () => {
    expect(compileRowMapper({ execute: () => undefined, fields: [] })).toBeUndefined();
    expect(
      compileRowMapper({ execute: () => undefined, fields: [{ path: ["a", "b", "c"], field: tickets.id }] }),
    ).toBeUndefined();
  });

  it("is what the inbox, the search, the chat and its ticket run on", async () => {
    const { db } = database;
    const actor = { id: 1, admin: true, queueIds: [] };
    await listTickets(db, { actor, showAll: true, status: "open" }, { limit: 40, offset: 0 });
    await listTickets(db, { actor, showAll: true, search: "pedido" }, { limit: 40, offset: 0 });
    await runRead(ticketMessagesRead(db, ticketIds[0], { limit: 20, offset: 0 }, actor));
    await runRead(ticketMessagesRead(db, ticketIds[0], { limit: 20, offset: 0 }, { id: 1, admin: false, queueIds: [] }));
    await runRead(presentableTicketRead(db, ticketIds[0]));
    const cached = (name: string) =>
      prepared(db, name, () => {
        throw new Error(`${name} was not prepared`);
      }) as Record<string, { customResultMapper?: unknown }> & { customResultMapper?: unknown };
    expect(cached("tickets_inbox_ast").page.customResultMapper).toBeTypeOf("function");
    expect(cached("tickets_search_as").customResultMapper).toBeTypeOf("function");
    expect(cached("messages_page").customResultMapper).toBeTypeOf("function");
    expect(cached("messages_page_reader").customResultMapper).toBeTypeOf("function");
    expect(cached("ticket_presentable").customResultMapper).toBeTypeOf("function");
  });
});
