import mysql from "mysql2/promise";
import pg from "pg";

export type Dialect = "mysql" | "postgres";
export type Row = Record<string, unknown>;

/**
 * The old system's database, read only. SQL is written once for both dialects: identifiers in
 * double quotes (MySQL sessions run with ANSI_QUOTES) and `?` placeholders.
 */
export interface Source {
  dialect: Dialect;
  /** The database's name, part of the import's identity (import_map.source). */
  database: string;
  query<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * A keyset page (`order by` the table's key, `limit`): planned to follow the key's index. A
   * PostgreSQL table without statistics (a dump just restored, not yet analyzed, which a read-only
   * user cannot analyze) is otherwise read whole and sorted again for every page.
   */
  page<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The primary key columns of a table, in the key's order (none when it has no primary key). */
  primaryKey(table: string): Promise<string[]>;
  /** Column names of each table that exists (exact case). */
  columns(): Promise<Map<string, Set<string>>>;
  close(): Promise<void>;
}

const toPg = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

const PRIMARY_KEY = (schema: string) =>
  `select k.column_name as c from information_schema.table_constraints t
   join information_schema.key_column_usage k on k.constraint_name = t.constraint_name
     and k.table_schema = t.table_schema and k.table_name = t.table_name
   where t.constraint_type = 'PRIMARY KEY' and t.table_schema = ${schema} and t.table_name = ?
   order by k.ordinal_position`;

/**
 * `timezone`: how the source's naive DATETIME values are read (MySQL flavours write them in the
 * Sequelize session timezone, -03:00 by default).
 */
export async function openSource(url: string, options: { timezone?: string } = {}): Promise<Source> {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  if (!database) throw new Error(`${redact(url)} names no database`);
  if (parsed.protocol === "mysql:" || parsed.protocol === "mariadb:") {
    const connection = await mysql.createConnection({
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : 3306,
      user: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
      database,
      timezone: options.timezone ?? "-03:00",
      dateStrings: false,
      supportBigNumbers: true,
      bigNumberStrings: true,
      charset: "utf8mb4",
    });
    await connection.query("SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES')");
    return {
      dialect: "mysql",
      database,
      query: async <T>(sql: string, params: unknown[] = []) => {
        const [rows] = await connection.query(sql, params);
        return rows as T[];
      },
      page: async <T>(sql: string, params: unknown[] = []) => {
        const [rows] = await connection.query(sql, params);
        return rows as T[];
      },
      primaryKey: async (table) => {
        const [rows] = await connection.query(PRIMARY_KEY("database()"), [table]);
        return (rows as { c: string }[]).map((r) => r.c);
      },
      columns: async () => {
        const [rows] = await connection.query(
          "select table_name as t, column_name as c from information_schema.columns where table_schema = database()",
        );
        return group(rows as { t: string; c: string }[]);
      },
      close: () => connection.end(),
    };
  }
  if (parsed.protocol === "postgres:" || parsed.protocol === "postgresql:") {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // Read as of one moment: the counts at the end reconcile against what was read.
    return {
      dialect: "postgres",
      database,
      query: async <T>(sql: string, params: unknown[] = []) => (await client.query(toPg(sql), params)).rows as T[],
      page: async <T>(sql: string, params: unknown[] = []) => {
        // Queued back to back on the one connection: no other query runs between them.
        const off = client.query("set enable_sort = off");
        const page = client.query(toPg(sql), params);
        const on = client.query("reset enable_sort");
        on.catch(() => {});
        page.catch(() => {});
        await off;
        try {
          return (await page).rows as T[];
        } finally {
          await on;
        }
      },
      primaryKey: async (table) =>
        (await client.query<{ c: string }>(toPg(PRIMARY_KEY("current_schema()")), [table])).rows.map((r) => r.c),
      columns: async () =>
        group(
          (
            await client.query(
              "select table_name as t, column_name as c from information_schema.columns where table_schema = current_schema()",
            )
          ).rows,
        ),
      close: () => client.end(),
    };
  }
  throw new Error(`--from must be a postgres:// or mysql:// URL, not ${parsed.protocol}`);
}

function group(rows: { t: string; c: string }[]): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const { t, c } of rows) {
    const set = map.get(t) ?? new Set<string>();
    set.add(c);
    map.set(t, set);
  }
  return map;
}

/** The URL without its password, for messages and the report. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(invalid URL)";
  }
}
