import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../packages/server/src/db/client.js";
import { listMigrations } from "../packages/server/src/db/migrate.js";
import { buildCorpus, FIRST_NAMES, PROBE_WORD, phrases, SURNAMES } from "./corpus.js";

/** Row counts of a data set at `scale` (1 = the issue's 20k contacts, 50k tickets, 500k messages). */
export function sizes(scale: number) {
  const tickets = Math.max(200, Math.round(50_000 * scale));
  // Messages are a multiple of 2,000, so the 5% hot share splits evenly and the probe's 1% is exact.
  const messages = Math.max(2_000, Math.round((500_000 * scale) / 2_000) * 2_000);
  // Each active ticket needs a contact of its own (one active ticket per contact and connection).
  const contacts = Math.max(Math.round(20_000 * scale), Math.ceil(tickets * 0.3) + 10);
  return { contacts, tickets, messages, hotMessages: messages / 20, hotTickets: 20 };
}

export interface DataSet {
  queueIds: number[];
  /** Agent k serves queues k and k+1 (mod 4); agent 0 is the one whose inbox is measured. */
  agentIds: number[];
  adminId: number;
  /**
   * Issue 19: ten agents with agent 0's queues and ten more admins. Heavy reads are one per user in
   * flight, so ten searches or dashboards at once come from ten people, as they would.
   */
  crowd: { agentIds: number[]; adminIds: number[] };
  mainWhatsappId: number;
  /** A connection with one queue: ingest assigns it silently (no menu, no outbound). */
  ingestWhatsappId: number;
  hotTicketIds: number[];
  sizes: ReturnType<typeof sizes>;
  /** Rows actually present after generation, and the probe word's share of bodies. */
  counts: Record<string, number>;
  timingsMs: Record<string, number>;
}

type Exec = <T>(query: SQL) => Promise<T[]>;
const PHRASES = 8_192;

/** A stable pseudo-random non-negative int per (row, salt): the same data set every run, on both engines. */
const h = (expr: string, salt: number) => `(hashint4((${expr})::int * 7 + ${salt})::bigint & 2147483647)`;
const textArray = (values: string[]) => `array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(",")}]`;

/**
 * Fill a freshly migrated and seeded database with the benchmark data set, with set-based SQL
 * (insert ... select generate_series) in one transaction. Secondary indexes are dropped first and
 * rebuilt at the end, the way a bulk load is done; the definitions are read from the catalog so
 * the rebuilt indexes are exactly the migration's.
 */
/** `count` contacts "First Surname" (a surname is one in SURNAMES.length), numbers 55 + 11 digits. */
/**
 * The backfills of migrations 0015 (tickets' first_response_at, closed_at, accepted_at) and 0016
 * (waiting_since), whose triggers are off during the load (issue 13).
 */
export function metricsBackfill(): string[] {
  return ["0015_ticket_metrics", "0016_waiting_since"].flatMap((name) => {
    const migration = listMigrations().find((m) => m.name === name);
    if (!migration) throw new Error(`migration ${name} not found`);
    return migration.statements.filter((s) => /^(--[^\n]*\n)*UPDATE /.test(s));
  });
}

export const insertContactsSql = (count: number) => `insert into contacts (id, name, number, created_at, updated_at)
  select i, (${textArray(FIRST_NAMES)})[1 + ${h("i", 1)} % ${FIRST_NAMES.length}] || ' ' ||
    (${textArray(SURNAMES)})[1 + ${h("i", 2)} % ${SURNAMES.length}],
    '55' || lpad(i::text, 11, '0'), now() - interval '120 days', now() - (${h("i", 3)} % 7776000) * interval '1 second'
  from generate_series(1, ${count}) i`;

export async function generate(database: Database, scale: number): Promise<DataSet> {
  const n = sizes(scale);
  const timingsMs: Record<string, number> = {};
  const corpus = buildCorpus();
  const slices = phrases(corpus, PHRASES);

  const result = await database.db.transaction(async (tx) => {
    const exec: Exec = async <T>(query: SQL) => ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
    const raw = <T>(text: string) => exec<T>(sql.raw(text));
    const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const value = await work();
      timingsMs[name] = Math.round(performance.now() - started);
      return value;
    };

    const [{ existing }] = await raw<{ existing: number }>("select count(*)::int as existing from tickets");
    if (existing > 0) throw new Error("the benchmark database must be empty");
    await raw(`set local maintenance_work_mem = '256MB'`);
    // Foreign keys hold by construction; skipping their per-row triggers keeps the load set-based.
    await raw("set local session_replication_role = replica");

    const indexes = await step("dropIndexes", async () => {
      const rows = await raw<{ name: string; def: string }>(
        `select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x
         join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
         where t.relname in ('contacts', 'tickets', 'messages')
           and not exists (select 1 from pg_constraint c where c.conindid = i.oid)`,
      );
      for (const row of rows) await raw(`drop index "${row.name}"`);
      return rows;
    });

    const [admin] = await raw<{ id: number }>("select id from users where profile = 'admin' order by id limit 1");
    const queueIds = (
      await raw<{ id: number }>(
        `insert into queues (name, color) values ('Vendas', '#2e7d32'), ('Suporte', '#1565c0'),
         ('Financeiro', '#ef6c00'), ('Pós-venda', '#6a1b9a') returning id`,
      )
    ).map((r) => r.id);
    const agentIds = (
      await raw<{ id: number }>(
        `insert into users (name, email, password_hash, profile) select 'Agent ' || k, 'agent' || k || '@bench.test',
         'not-a-hash: bench users sign in with tokens', 'user' from generate_series(0, 3) k order by k returning id`,
      )
    ).map((r) => r.id);
    for (const [k, id] of agentIds.entries()) {
      await raw(`insert into user_queues (user_id, queue_id) values (${id}, ${queueIds[k]}), (${id}, ${queueIds[(k + 1) % 4]})`);
    }
    const crowdOf = async (profile: "user" | "admin") =>
      (
        await raw<{ id: number }>(
          `insert into users (name, email, password_hash, profile) select '${profile} ' || k, '${profile}-crowd' || k || '@bench.test',
           'not-a-hash: bench users sign in with tokens', '${profile}' from generate_series(0, 9) k order by k returning id`,
        )
      ).map((r) => r.id);
    const crowd = { agentIds: await crowdOf("user"), adminIds: await crowdOf("admin") };
    for (const id of crowd.agentIds) {
      await raw(`insert into user_queues (user_id, queue_id) values (${id}, ${queueIds[0]}), (${id}, ${queueIds[1]})`);
    }
    const [main, ingest] = await raw<{ id: number }>(
      `insert into whatsapps (name, provider, status, is_default) -- CONNECTED: paired phones, resumed at start
       values ('Bench main', 'simulator', 'CONNECTED', true),
       ('Bench ingest', 'simulator', 'CONNECTED', false) returning id`,
    );
    await raw(
      `insert into whatsapp_queues (whatsapp_id, queue_id) select ${main.id}, unnest(array[${queueIds}])
       union all select ${ingest.id}, ${queueIds[0]}`,
    );

    await step("contacts", () => raw(insertContactsSql(n.contacts)));

    // Status by i % 10: exactly 10% pending, 20% open, 70% closed. Active tickets take distinct
    // contacts (rank among active ids), closed ones any contact: the partial unique index holds.
    const agents = `array[${agentIds}]`;
    await step("tickets", () =>
      raw(`insert into tickets (id, status, user_id, queue_id, contact_id, whatsapp_id, created_at, updated_at)
        select i, st,
          case when st = 'pending' then null
               when st = 'closed' and ${h("i", 7)} % 100 >= 85 then null
               when qx is null then (${agents})[1 + ${h("i", 8)} % 4]
               else (${agents})[1 + case when ${h("i", 8)} % 2 = 0 then qx else (qx + 3) % 4 end] end,
          case when qx is null then null else (array[${queueIds}])[1 + qx] end,
          case when st = 'closed' then 1 + ${h("i", 6)} % ${n.contacts} else (i / 10) * 3 + i % 10 + 1 end,
          ${main.id}, upd - (${h("i", 5)} % 259200) * interval '1 second', upd
        from (select i,
                case when i % 10 = 0 then 'pending' when i % 10 <= 2 then 'open' else 'closed' end as st,
                case when ${h("i", 3)} % 10 = 0 then null else (${h("i", 3)} / 10) % 4 end as qx,
                now() - (${h("i", 4)} % 7776000) * interval '1 second' as upd
              from generate_series(1, ${n.tickets}) i) s`),
    );

    const hot = await raw<{ id: number }>(
      `select id from tickets where status = 'open' and user_id = ${agentIds[0]} order by id limit ${n.hotTickets}`,
    );
    const hotIds = hot.map((r) => r.id);
    if (hotIds.length === 0) throw new Error("scale too small: no open ticket for the hot set");
    await raw("create temp table bench_hot (hx int primary key, id int not null) on commit drop");
    await raw(`insert into bench_hot select k, (array[${hotIds}])[k] from generate_series(1, ${hotIds.length}) k`);
    await raw("create temp table bench_phrases (id int primary key, body text not null) on commit drop");
    await exec(sql`insert into bench_phrases select k, b from jsonb_array_elements_text(${JSON.stringify(slices)}::jsonb)
      with ordinality as p(b, k)`);

    const normal = n.messages - n.hotMessages;
    const hotCount = hotIds.length;
    // g is the message's global number: one body in each block of 100 carries the probe word (exactly
    // 1%), at a pseudo-random place in the block so the probe is not tied to every 100th ticket.
    const probe = (g: string) => `((${g}) - 1) % 100 = ${h(`((${g}) - 1) / 100`, 11)} % 100`;
    const body = (g: string, j: string) =>
      `rtrim(left(case when ${probe(g)} then '${PROBE_WORD} ' || p.body else p.body end, 21 + (${h(j, 9)} % 180)::int))`;
    const insertMessages = (from: string, ts: string, g: string) =>
      `insert into messages (wid, whatsapp_id, ticket_id, contact_id, user_id, body, from_me, read, ack, created_at, updated_at)
       select 'bench-' || (${g}), ${main.id}, t.id, case when x.fm then null else t.contact_id end,
         case when x.fm then t.user_id end, ${body(g, "j")}, x.fm, x.fm or t.status <> 'pending',
         case when x.fm then 3 else 0 end, ${ts}, ${ts}
       ${from}
       join bench_phrases p on p.id = 1 + ${h("j", 10)} % ${PHRASES}
       cross join lateral (select t.user_id is not null and k % 3 = 1 as fm) x`;

    // Message j of ticket t is the k-th of its n; it is dated so the last one is the ticket's updatedAt.
    await step("messages", () =>
      raw(
        insertMessages(
          `from (select j, 1 + (j - 1) % ${n.tickets} as tid, (j - 1) / ${n.tickets} as k
                 from generate_series(1, ${normal}) j) s
           join tickets t on t.id = s.tid left join bench_hot hh on hh.id = t.id`,
          // A hot ticket's ordinary messages come before its burst of hot ones.
          `t.updated_at - ((${normal} - t.id) / ${n.tickets} - k) * interval '2 minutes'
             - case when hh.id is null then interval '0' else ${n.hotMessages / hotCount + 1} * interval '1 minute' end`,
          "j",
        ),
      ),
    );
    await step("hotMessages", () =>
      raw(
        insertMessages(
          `from (select j, 1 + (j - 1) % ${hotCount} as hx, (j - 1) / ${hotCount} as k
                 from generate_series(1, ${n.hotMessages}) j) s
           join bench_hot hh on hh.hx = s.hx join tickets t on t.id = hh.id`,
          `t.updated_at - ((${n.hotMessages} - s.hx) / ${hotCount} - k) * interval '1 minute'`,
          `${normal} + j`,
        ),
      ),
    );

    await step("lastMessage", () =>
      raw(`update tickets t set last_message = m.body, unread_messages = m.unread
        from (select ticket_id, (array_agg(body order by created_at desc, id desc))[1] as body,
                     count(*) filter (where not read and not from_me)::int as unread
              from messages group by ticket_id) m
        where m.ticket_id = t.id`),
    );
    // The triggers that stamp the dashboard metrics' timestamps are off during the load: the migration's backfill fills them.
    await step("metricsBackfill", async () => {
      for (const statement of metricsBackfill()) await raw(statement);
    });
    await raw("select setval(pg_get_serial_sequence('contacts', 'id'), (select max(id) from contacts))");
    await raw("select setval(pg_get_serial_sequence('tickets', 'id'), (select max(id) from tickets))");
    await step("createIndexes", async () => {
      for (const index of indexes) await raw(index.def);
    });
    return {
      queueIds,
      agentIds,
      adminId: admin.id,
      crowd,
      mainWhatsappId: main.id,
      ingestWhatsappId: ingest.id,
      hotTicketIds: hotIds,
    };
  });

  const started = performance.now();
  await database.exec("vacuum analyze");
  timingsMs.vacuumAnalyze = Math.round(performance.now() - started);
  const [counts] = await database.query<Record<string, number>>(
    `select (select count(*)::int from contacts) as contacts, (select count(*)::int from tickets) as tickets,
       (select count(*)::int from tickets where status = 'pending') as pending,
       (select count(*)::int from tickets where status = 'open') as open,
       (select count(*)::int from tickets where status = 'closed') as closed,
       (select count(*)::int from tickets where queue_id is null) as "withoutQueue",
       (select count(*)::int from messages) as messages,
       (select count(*)::int from messages where body ilike '%${PROBE_WORD}%') as "probeBodies",
       (select count(distinct ticket_id)::int from messages where body ilike '%${PROBE_WORD}%') as "probeTickets",
       (select min(length(body))::int from messages) as "minBody", (select max(length(body))::int from messages) as "maxBody",
       (select count(*)::int from messages where ticket_id = ${result.hotTicketIds[0]}) as "hotTicketMessages",
       (select count(*)::int from tickets t where t.last_message <> (select body from messages m where m.ticket_id = t.id
          order by created_at desc, id desc limit 1)) as "inconsistentLastMessage"`,
  );
  return { ...result, sizes: n, counts, timingsMs };
}
