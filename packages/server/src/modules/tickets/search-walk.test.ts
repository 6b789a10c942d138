import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, rowsOf } from "../../../test/harness.js";
import { type Database, openDatabase } from "../../db/client.js";
import { NO_STATS_TTL_MS, readSearchStats, STATS_TTL_MS, searchWalkLimit } from "./search-breadth.js";
import { SEARCH_COUNT_CAP } from "./search-count.js";
import { listTickets, type TicketFilter } from "./ticket-list.repo.js";

/**
 * Issue 24: a word in most messages is searched by walking the tickets newest first
 * (search-breadth.ts, search-hits.ts) and finds what collecting its messages finds: the same page,
 * the same count, under the same access. Checked against a plain statement written here, on a
 * database whose statistics say which words are common.
 */

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let one: Database;
let agentId: number;
let mine: number;
let theirs: number;

const TICKETS = 1_300;
const PER_TICKET = 8;

beforeAll(async () => {
  database = await openTestDatabase();
  one = await openDatabase({ url: database.url, poolSize: 1, connectTimeoutMs: 5000 });
  const exec = <T>(query: ReturnType<typeof sql>) => one.db.execute(query).then((r) => rowsOf<T>(r));
  [{ id: agentId }] = await exec<{ id: number }>(
    sql`insert into users (name, email, password_hash) values ('Agente', 'agente@walk.test', 'x') returning id`,
  );
  [{ id: mine }, { id: theirs }] = await exec<{ id: number }>(
    sql`insert into queues (name, color) values ('Minha', '#111111'), ('Outra', '#222222') returning id`,
  );
  await exec(sql`insert into contacts (name, number)
    select case when n % 97 = 0 then 'Cliente Zcomum ' || n else 'Cliente ' || n end, '55219' || lpad(n::text, 8, '0')
    from generate_series(1, ${TICKETS}) n`);
  // One ticket a contact: a third in the agent's queue, a third in another, a third without one; a
  // few of the other queue's are the agent's own; the statuses mixed; each moved at its own time.
  await exec(sql`insert into tickets (contact_id, status, queue_id, user_id, updated_at)
    select c.id, (array['pending', 'open', 'closed'])[1 + c.id % 3],
      case c.id % 3 when 0 then ${mine}::int when 1 then ${theirs}::int end,
      case when c.id % 3 = 1 and c.id % 7 = 0 then ${agentId}::int end,
      now() - c.id * interval '1 minute'
    from contacts c`);
  // Eight messages a ticket: "zcomum" in two of five messages (a common word), "zraro" in one in
  // two hundred, both in some.
  await exec(sql`insert into messages (ticket_id, contact_id, body, created_at)
    select t.id, t.contact_id,
      'mensagem ' || m.k || case when (t.id * ${PER_TICKET} + m.k) % 5 < 2 then ' sobre o zcomum' else '' end
        || case when (t.id * ${PER_TICKET} + m.k) % 200 = 0 then ' e o zraro' else '' end,
      t.updated_at - (${PER_TICKET} - m.k) * interval '1 second'
    from tickets t cross join generate_series(1, ${PER_TICKET}) m(k)`);
  await exec(sql`analyze`);
});
afterAll(async () => {
  await one?.close();
  await database?.close();
  await database?.drop();
});

const admin = (): TicketFilter["actor"] => ({ id: 1, admin: true, queueIds: [] });
const agent = (): TicketFilter["actor"] => ({ id: agentId, admin: false, queueIds: [mine], hideChoosing: true });

/** What the search must find, written plainly: every visible ticket with the words in a message or its contact's name. */
async function expected(actor: TicketFilter["actor"], word: string, status?: string, oldest = false): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(
    await one.db.execute(sql`select t.id from tickets t join contacts c on c.id = t.contact_id
      where (${actor.admin} or t.user_id = ${actor.id} or t.queue_id is null or t.queue_id = any(string_to_array(${actor.queueIds.join(",")}, ',')::int[]))
        and (${status ?? null}::text is null or t.status = ${status ?? null})
        and (exists (select 1 from messages m where m.ticket_id = t.id and m.body ilike ${`%${word}%`})
          or c.name ilike ${`%${word}%`})
      order by ${oldest ? sql`t.waiting_since, t.updated_at, t.id` : sql`t.updated_at desc, t.id desc`}`),
  );
  return rows.map((r) => r.id);
}

const list = (actor: TicketFilter["actor"], search: string, page: number, extra: Partial<TicketFilter> = {}) =>
  listTickets(one.db, { actor, showAll: false, search, ...extra }, { limit: 40, offset: (page - 1) * 40 });

/**
 * A search listed inside a transaction that is then rolled back, and how many scans each named
 * relation had during it. The counts are the transaction's own (pg_stat_get_xact_numscans): the
 * backend's counts not yet flushed include earlier ones, hence the difference.
 */
async function listCountingScans<K extends string>(
  db: Database["db"],
  relations: Record<K, string>,
  filter: TicketFilter,
  page = { limit: 40, offset: 0 },
): Promise<{ list: Awaited<ReturnType<typeof listTickets>>; scans: Record<K, number> }> {
  const names = Object.keys(relations) as K[];
  const columns = sql.join(
    names.map((name) => sql`pg_stat_get_xact_numscans(${relations[name]}::regclass)::int as ${sql.identifier(name)}`),
    sql`, `,
  );
  const rolledBack = Symbol("roll back");
  let found: { list: Awaited<ReturnType<typeof listTickets>>; scans: Record<K, number> } | undefined;
  await db
    .transaction(async (tx) => {
      const count = async () => rowsOf<Record<K, number>>(await tx.execute(sql`select ${columns}`))[0];
      const before = await count();
      const list = await listTickets(tx, filter, page);
      const after = await count();
      found = { list, scans: Object.fromEntries(names.map((name) => [name, after[name] - before[name]])) as Record<K, number> };
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
  return found as NonNullable<typeof found>;
}

describe("the ticket search's walk", () => {
  it("walks for a word in most tickets, never for a rare one, from the planner's statistics", async () => {
    const stats = await readSearchStats(one.db);
    expect(stats?.lexemes).toContain("zcomum");
    expect(await searchWalkLimit(one.db, "zcomum", SEARCH_COUNT_CAP + 1)).toBeGreaterThan(0);
    expect(await searchWalkLimit(one.db, "ZCOM", SEARCH_COUNT_CAP + 1)).toBeGreaterThan(0);
    expect(await searchWalkLimit(one.db, "zraro", SEARCH_COUNT_CAP + 1)).toBe(0);
    expect(await searchWalkLimit(one.db, "zcomum zraro", SEARCH_COUNT_CAP + 1)).toBe(0);
    expect(await searchWalkLimit(one.db, "nadaassim", SEARCH_COUNT_CAP + 1)).toBe(0);
  });

  it("reads the statistics again soon while there were none, and keeps them for ten minutes once there are", async () => {
    // A database whose messages were never analyzed, as on a new install or right after an import
    // (autovacuum held off here, so that it cannot analyze them under the test).
    const fresh = await openTestDatabase();
    const handle = await openDatabase({ url: fresh.url, poolSize: 1, connectTimeoutMs: 5000 });
    try {
      await handle.db.execute(sql`alter table messages set (autovacuum_enabled = false)`);
      await handle.db.execute(sql`insert into contacts (name, number) values ('Cliente', '5521900000001')`);
      await handle.db.execute(sql`insert into tickets (contact_id, status) select id, 'open' from contacts`);
      await handle.db.execute(sql`insert into messages (ticket_id, contact_id, body)
        select t.id, t.contact_id, 'sobre o zcomum ' || n from tickets t cross join generate_series(1, 200) n`);
      const wanted = SEARCH_COUNT_CAP + 1;
      const start = Date.now();
      expect(await searchWalkLimit(handle.db, "zcomum", wanted, start)).toBe(0);
      await handle.db.execute(sql`analyze messages, tickets`);
      // Within the retry's wait the missing statistics are not asked for again; after it they are.
      expect(await searchWalkLimit(handle.db, "zcomum", wanted, start + NO_STATS_TTL_MS - 1000)).toBe(0);
      const read = start + NO_STATS_TTL_MS + 1;
      expect(await searchWalkLimit(handle.db, "zcomum", wanted, read)).toBeGreaterThan(0);
      // Statistics found are kept: a table emptied since is not seen until they are read again.
      await handle.db.execute(sql`delete from messages`);
      await handle.db.execute(sql`analyze messages`);
      expect(await searchWalkLimit(handle.db, "zcomum", wanted, read + NO_STATS_TTL_MS + 1)).toBeGreaterThan(0);
      expect(await searchWalkLimit(handle.db, "zcomum", wanted, read + STATS_TTL_MS + 1)).toBe(0);
    } finally {
      await handle.close();
      await fresh.close();
      await fresh.drop();
    }
  });

  it("finds the same pages and counts as the words' index, for an admin and an agent", async () => {
    for (const actor of [admin(), agent()]) {
      for (const word of ["zcomum", "zraro"]) {
        const all = await expected(actor, word);
        expect(all.length).toBeGreaterThan(word === "zraro" ? 10 : 500);
        const pages = Math.ceil(all.length / 40);
        const seen: number[] = [];
        for (let page = 1; page <= pages; page++) {
          const { rows, count, countCapped } = await list(actor, word, page);
          seen.push(...rows.map((r) => r.ticket.id));
          // Exact up to the cap (or the page asked for, when further), and flagged past it.
          const cap = Math.max(SEARCH_COUNT_CAP, page * 40);
          expect({ count, countCapped }).toEqual({ count: Math.min(all.length, cap), countCapped: all.length > cap });
        }
        expect(seen).toEqual(all);
        // A page past the end has no row to carry the count: it is counted apart, to the same figure.
        const past = await list(actor, word, pages + 1);
        const cap = Math.max(SEARCH_COUNT_CAP, (pages + 1) * 40);
        expect(past).toEqual({ rows: [], count: Math.min(all.length, cap), countCapped: all.length > cap });
      }
    }
  });

  it("keeps the other filters, a contact's name, and each ticket's newest matching message", async () => {
    const open = await list(agent(), "zcomum", 1, { status: "open" });
    const openExpected = await expected(agent(), "zcomum", "open");
    expect(open.rows.map((r) => r.ticket.id)).toEqual(openExpected.slice(0, 40));
    expect(open.count).toBe(openExpected.length);

    // "Zcomum" is also in some contacts' names: with or without it in their messages, they are found.
    const byName = await expected(admin(), "zcomum");
    const names = rowsOf<{ id: number }>(
      await one.db.execute(sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.name like '%Zcomum%'`),
    ).map((r) => r.id);
    expect(names.length).toBeGreaterThan(5);
    expect(names.every((id) => byName.includes(id))).toBe(true);

    const { rows } = await list(admin(), "zcomum", 1);
    for (const row of rows.slice(0, 10)) {
      const [newest] = rowsOf<{ id: number }>(
        await one.db.execute(sql`select id from messages where ticket_id = ${row.ticket.id} and body like '%zcomum%'
          order by created_at desc, id desc limit 1`),
      );
      expect(row.matchedMessageId).toBe(newest ? Number(newest.id) : null);
    }

    // Oldest first (the waiting ones by when they began to wait) is never walked, and finds the same tickets.
    const oldest = await list(admin(), "zcomum", 1, { sort: "oldest" });
    expect(oldest.rows.map((r) => r.ticket.id)).toEqual((await expected(admin(), "zcomum", undefined, true)).slice(0, 40));
  });

  it("reads no message through the words' index when it walks, and collects them otherwise", async () => {
    // What the statement read, through the server's own prepared statements: scans of the words'
    // index, whole reads of the messages (a table this small is read whole rather than through the
    // index), the walk's index scans. Not the words' index's pages: planning the statement anew (its
    // plan invalidated by an ANALYZE beside it) reads its metapage.
    const reads = async (search: string, sort?: "oldest", offset = 0) =>
      (
        await listCountingScans(
          one.db,
          { words: "messages_search_idx", whole: "messages", walks: "tickets_updated_idx" },
          { actor: agent(), showAll: false, search, sort },
          { limit: 40, offset },
        )
      ).scans;
    // One walk: it found fewer than the count's cap after every ticket the agent may see, within its
    // limit, and needs no second look to tell it was not stopped.
    expect(await reads("zcomum")).toEqual({ words: 0, whole: 0, walks: 1 });
    const rare = await reads("zraro");
    expect(rare.words + rare.whole).toBeGreaterThan(0);
    // Oldest first, the common word is collected as before.
    const oldest = await reads("zcomum", "oldest");
    expect(oldest.words + oldest.whole).toBeGreaterThan(0);
  });
});

describe("a walk that does not find the word where the statistics say it is", () => {
  // "Natal" in June: the word is in a fifth of the messages, all in old tickets but five of the
  // newest, so the statistics choose the walk, which would go through every new ticket before the
  // old ones. It stops after as many tickets as collecting would read messages for, and the search
  // collects instead: the same page and count, without walking the whole table.
  const OLD = 881;
  const NEW = 3_000;
  let fresh: Awaited<ReturnType<typeof openTestDatabase>>;
  let handle: Database;

  beforeAll(async () => {
    fresh = await openTestDatabase();
    handle = await openDatabase({ url: fresh.url, poolSize: 1, connectTimeoutMs: 5000 });
    await handle.db.execute(sql`insert into contacts (name, number)
      select 'Cliente ' || n, '55319' || lpad(n::text, 8, '0') from generate_series(1, ${OLD + NEW}) n`);
    // The first OLD contacts' tickets are a month old; the others' are from the last hour.
    await handle.db.execute(sql`insert into tickets (contact_id, status, updated_at)
      select c.id, 'closed', case when c.id <= (select min(id) from contacts) + ${OLD - 1}
        then now() - interval '30 days' - c.id * interval '1 minute' else now() - c.id * interval '1 second' end
      from contacts c`);
    await handle.db.execute(sql`insert into messages (ticket_id, contact_id, body, created_at)
      select t.id, t.contact_id,
        'mensagem ' || m.k || case when t.updated_at < now() - interval '1 day' or t.id % 600 = 0 then ' de zsazonal' else '' end,
        t.updated_at - (10 - m.k) * interval '1 second'
      from tickets t cross join generate_series(1, 10) m(k)`);
    await handle.db.execute(sql`analyze`);
  });
  afterAll(async () => {
    await handle?.close();
    await fresh?.close();
    await fresh?.drop();
  });

  it("stops after its limit and collects, finding the same page and count", async () => {
    const limit = await searchWalkLimit(handle.db, "zsazonal", SEARCH_COUNT_CAP + 1);
    expect(limit).toBeGreaterThan(SEARCH_COUNT_CAP);
    expect(limit).toBeLessThan(NEW);
    const all = rowsOf<{ id: number }>(
      await handle.db.execute(sql`select t.id from tickets t where exists (select 1 from messages m
        where m.ticket_id = t.id and m.body like '%zsazonal%') order by t.updated_at desc, t.id desc`),
    ).map((r) => r.id);
    // The old tickets, and a few new ones: the walk finds these and must not stop there.
    expect(all.length).toBeGreaterThan(OLD);
    // Each ticket the walk looks into is one scan of the (ticket, time) index of messages.
    const { list: found, scans } = await listCountingScans(
      handle.db,
      { looked: "messages_ticket_created_idx" },
      { actor: admin(), showAll: false, search: "zsazonal" },
    );
    expect(found.rows.map((r) => r.ticket.id)).toEqual(all.slice(0, 40));
    expect({ count: found.count, countCapped: found.countCapped }).toEqual({ count: all.length, countCapped: false });
    // The walk's tickets, and the newest matching message of each row of both pages (the walk's few
    // and the collection's 40): fewer than the new tickets, which an unbounded walk goes through.
    expect(scans.looked).toBeLessThanOrEqual(limit + 2 * 40);
    expect(scans.looked).toBeLessThan(NEW);
  });
});

describe("an agent's walk", () => {
  // The walk's limit is the number of tickets whose messages it may look into. An agent who sees a
  // third of the tickets passes three for each one looked into: were the limit counted on every
  // ticket passed, the agent's walk would stop short of the count's cap after a third of its budget
  // and the search would pay for the collection as well.
  const TOTAL = 3_000;
  let fresh: Awaited<ReturnType<typeof openTestDatabase>>;
  let handle: Database;
  let seer: TicketFilter["actor"];

  beforeAll(async () => {
    fresh = await openTestDatabase();
    handle = await openDatabase({ url: fresh.url, poolSize: 1, connectTimeoutMs: 5000 });
    const exec = <T>(query: ReturnType<typeof sql>) => handle.db.execute(query).then((r) => rowsOf<T>(r));
    const [{ id }] = await exec<{ id: number }>(
      sql`insert into users (name, email, password_hash) values ('Agente', 'agente@terco.test', 'x') returning id`,
    );
    const queues = (
      await exec<{ id: number }>(
        sql`insert into queues (name, color) values ('Minha', '#111111'), ('Outra', '#222222'), ('Terceira', '#333333') returning id`,
      )
    ).map((q) => q.id);
    seer = { id, admin: false, queueIds: [queues[0]], hideChoosing: true };
    await exec(sql`insert into contacts (name, number)
      select 'Cliente ' || n, '55419' || lpad(n::text, 8, '0') from generate_series(1, ${TOTAL}) n`);
    // Every ticket in a queue, the agent's one in three.
    await exec(sql`insert into tickets (contact_id, status, queue_id, updated_at)
      select c.id, 'open', (${sql.raw(`array[${queues.join(",")}]`)})[1 + c.id % 3], now() - c.id * interval '1 minute'
      from contacts c`);
    // "zfrequente" in three messages of ten: in almost every ticket.
    await exec(sql`insert into messages (ticket_id, contact_id, body, created_at)
      select t.id, t.contact_id, 'mensagem ' || m.k || case when (t.id * 8 + m.k) % 10 < 3 then ' zfrequente' else '' end,
        t.updated_at - (8 - m.k) * interval '1 second'
      from tickets t cross join generate_series(1, 8) m(k)`);
    await exec(sql`analyze`);
  });
  afterAll(async () => {
    await handle?.close();
    await fresh?.close();
    await fresh?.drop();
  });

  it("counts against its limit only the tickets the agent may see, and finishes without collecting", async () => {
    const limit = await searchWalkLimit(handle.db, "zfrequente", SEARCH_COUNT_CAP + 1);
    // Within its limit of tickets passed, the walk would find fewer than the cap (a third are the
    // agent's, nearly all with the word) while older tickets remain; within its limit of the agent's
    // tickets it reaches the end of the table.
    expect(limit).toBeGreaterThan(TOTAL / 3);
    expect(limit).toBeLessThan(TOTAL);
    const all = rowsOf<{ id: number }>(
      await handle.db.execute(sql`select t.id from tickets t where t.queue_id = ${seer.queueIds[0]}
        and exists (select 1 from messages m where m.ticket_id = t.id and m.body like '%zfrequente%')
        order by t.updated_at desc, t.id desc`),
    ).map((r) => r.id);
    expect(all.length).toBeLessThanOrEqual(SEARCH_COUNT_CAP);
    const { list: found, scans } = await listCountingScans(
      handle.db,
      { words: "messages_search_idx", whole: "messages" },
      { actor: seer, showAll: false, search: "zfrequente" },
    );
    expect(found.rows.map((r) => r.ticket.id)).toEqual(all.slice(0, 40));
    expect({ count: found.count, countCapped: found.countCapped }).toEqual({ count: all.length, countCapped: false });
    // Neither the words' index nor a whole read of the messages: the walk's answer stood.
    expect(scans.words + scans.whole).toBe(0);
  });
});
