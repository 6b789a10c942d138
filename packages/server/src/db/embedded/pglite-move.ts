import { existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Database } from "../client.js";
import { migrate } from "../migrate.js";

/**
 * Until issue 19 the embedded database was PGlite in DATA_DIR/pgdata. On the first start of the
 * embedded PostgreSQL, that data is copied over, checked, and the old folder renamed (kept until
 * the admin removes it, unchanged: it is only read). PGlite has no other role any more. The whole
 * copy is one transaction on the new server, committed only once every table's row count and
 * content checksum and every sequence match: an interrupted or failed move leaves the new database
 * empty and the PGlite folder untouched, and is tried again next start.
 */
export const PGLITE_DIR = "pgdata";
export const MOVED_PGLITE_DIR = "pgdata-pglite-moved";

export interface MoveReport {
  tables: { name: string; rows: number }[];
  sequences: number;
  keptAt: string;
  ms: number;
}

/** The same text for the same row on both sides. */
const SESSION = [
  "set timezone = 'UTC'",
  "set datestyle = 'ISO, YMD'",
  "set intervalstyle = 'postgres'",
  "set extra_float_digits = 1",
  "set bytea_output = 'hex'",
];
const BLOCKS_PER_BATCH = 256;

interface Source {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

const tablesSql = `select c.relname as name from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') order by 1`;
/** Stored generated columns (the messages' search vector) are computed again by the new server. */
const columnsSql = `select a.attname as name from pg_attribute a where a.attrelid = format('%I', $1::text)::regclass
  and a.attnum > 0 and not a.attisdropped and a.attgenerated = '' order by a.attnum`;
const sequencesSql = `select sequencename as name, last_value::text as value, start_value::text as start
  from pg_sequences where schemaname = 'public' order by 1`;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Row count and an order-free checksum (sum of 60-bit md5 prefixes of each row's text). */
function fingerprintSql(table: string, columns: string[]): string {
  const row = `row(${columns.map(ident).join(", ")})::text`;
  return `select count(*)::text as rows, coalesce(sum(('x' || substr(md5(${row}), 1, 15))::bit(60)::bigint::numeric), 0)::text as sum from ${ident(table)}`;
}

export async function moveFromPglite(
  dataDir: string,
  targetUrl: string,
  log: (message: string) => void = () => {},
): Promise<MoveReport | undefined> {
  const from = join(dataDir, PGLITE_DIR);
  if (!existsSync(join(from, "PG_VERSION"))) return undefined;
  const started = Date.now();
  const keptAt = join(dataDir, MOVED_PGLITE_DIR);
  const target = new pg.Client({ connectionString: targetUrl });
  await target.connect();
  try {
    const done = await target.query("select 1 from pg_tables where schemaname = 'public' and tablename = 'zapdesk_pglite_move'");
    if (!done.rowCount) {
      const has = await target.query("select 1 from pg_tables where schemaname = 'public' and tablename = 'users'");
      if (has.rowCount && (await target.query("select 1 from users limit 1")).rowCount) {
        throw new Error(
          `Both ${from} (the PGlite database of earlier versions) and the embedded PostgreSQL hold data: ` +
            `move ${from} out of DATA_DIR to keep the PostgreSQL data, or empty DATA_DIR/postgres to move PGlite's again.`,
        );
      }
      log(`moving the embedded database from PGlite (${from}) to PostgreSQL: the first start after the upgrade`);
      const report = await copyAll(from, target, log);
      renameSync(from, keptAt);
      log(
        `moved ${report.tables.reduce((n, t) => n + t.rows, 0)} rows in ${report.tables.length} tables and ${report.sequences} sequences, ` +
          `all verified, in ${Date.now() - started} ms. The old PGlite folder is kept at ${keptAt}: remove it once you are satisfied.`,
      );
      return { ...report, keptAt, ms: Date.now() - started };
    }
    // Copied and committed, but the rename did not happen (a crash in between), or an old copy put back: set it aside, unread.
    const aside = existsSync(keptAt) ? `${keptAt}-${Date.now()}` : keptAt;
    renameSync(from, aside);
    log(
      `the PGlite data was already moved to PostgreSQL; ${from} was set aside, not read, at ${aside}: remove it once you are satisfied.`,
    );
    return undefined;
  } finally {
    await target.end();
  }
}

async function copyAll(from: string, target: pg.Client, log: (message: string) => void) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { unaccent } = await import("@electric-sql/pglite/contrib/unaccent");
  const pglite = await PGlite.create(from, { extensions: { pg_trgm, unaccent } });
  const source: Source = { query: async <T>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows };
  try {
    // The new database at the old one's schema (an old install may be some migrations behind; the
    // start migrates the rest after the move): the old folder is only read, and stays usable by the old version.
    const applied = await source
      .query<{ name: string }>("select name from zapdesk_migrations")
      .catch(() => [] as { name: string }[]);
    await migrate({ db: drizzle(target), kind: "embedded" } as unknown as Database, {
      only: new Set(applied.map((m) => m.name)),
    });
    for (const statement of SESSION) {
      await pglite.exec(statement);
      await target.query(statement);
    }
    const tables = (await source.query<{ name: string }>(tablesSql)).map((t) => t.name);
    const targetTables = (await target.query<{ name: string }>(tablesSql)).rows.map((t) => t.name);
    if (tables.join() !== targetTables.join()) {
      throw new Error(`The PGlite tables (${tables.join(", ")}) differ from the new schema's (${targetTables.join(", ")}).`);
    }
    await target.query("begin");
    // No triggers and no foreign-key checks while rows arrive in table order (the new server is ours: superuser).
    await target.query("set local session_replication_role = replica");
    await target.query(`truncate ${tables.map(ident).join(", ")} restart identity`);
    const copied: { name: string; rows: number }[] = [];
    for (const table of tables) {
      const columns = (await source.query<{ name: string }>(columnsSql, [table])).map((c) => c.name);
      const rows = await copyTable(pglite, target, table, columns);
      const [a] = await source.query<{ rows: string; sum: string }>(fingerprintSql(table, columns));
      const {
        rows: [b],
      } = await target.query<{ rows: string; sum: string }>(fingerprintSql(table, columns));
      if (a!.rows !== b!.rows || a!.sum !== b!.sum || Number(a!.rows) !== rows) {
        throw new Error(
          `The copy of ${table} does not match: PGlite ${a!.rows} rows (${a!.sum}), PostgreSQL ${b!.rows} rows (${b!.sum}).`,
        );
      }
      copied.push({ name: table, rows });
      if (rows > 0) log(`  ${table}: ${rows} rows`);
    }
    const sequences = await source.query<{ name: string; value: string | null; start: string }>(sequencesSql);
    for (const s of sequences) {
      await target.query("select setval(format('%I', $1::text)::regclass, $2::bigint, $3)", [
        s.name,
        s.value ?? s.start,
        s.value !== null,
      ]);
    }
    const after = (await target.query<{ name: string; value: string | null }>(sequencesSql)).rows;
    if (JSON.stringify(after.map((s) => [s.name, s.value])) !== JSON.stringify(sequences.map((s) => [s.name, s.value]))) {
      throw new Error("The sequences of the new database do not match PGlite's.");
    }
    await target.query("create table zapdesk_pglite_move (moved_at timestamptz not null default now(), report jsonb not null)");
    await target.query("insert into zapdesk_pglite_move (report) values ($1)", [JSON.stringify({ from, tables: copied })]);
    await target.query("commit");
    return { tables: copied, sequences: sequences.length };
  } catch (error) {
    await target.query("rollback").catch(() => {});
    throw error;
  } finally {
    await pglite.close();
  }
}

/**
 * Block range by block range (no sort, no key needed; nothing writes to the old folder), each
 * range as one JSON text built by PGlite and read by PostgreSQL: no value passes through a
 * JavaScript number or Date on the way (bigints, numerics, timestamps keep every digit).
 */
async function copyTable(
  pglite: { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> },
  target: pg.Client,
  table: string,
  columns: string[],
): Promise<number> {
  const list = columns.map(ident).join(", ");
  const {
    rows: [size],
  } = await pglite.query<{ blocks: number }>(
    `select (pg_relation_size(format('%I', $1::text)::regclass) / current_setting('block_size')::int)::int as blocks`,
    [table],
  );
  let copied = 0;
  for (let block = 0; block < size!.blocks; block += BLOCKS_PER_BATCH) {
    const {
      rows: [batch],
    } = await pglite.query<{ json: string | null; n: number }>(
      `select json_agg(t)::text as json, count(*)::int as n from (select ${list} from ${ident(table)}
        where ctid >= format('(%s,0)', $1::int)::tid and ctid < format('(%s,0)', $2::int)::tid) t`,
      [block, block + BLOCKS_PER_BATCH],
    );
    if (!batch?.json) continue;
    await target.query(
      `insert into ${ident(table)} (${list}) overriding system value select ${list} from json_populate_recordset(null::${ident(table)}, $1::json)`,
      [batch.json],
    );
    copied += batch.n;
  }
  return copied;
}
