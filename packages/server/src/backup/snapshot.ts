import { type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client.js";

/** Rows of a raw query run in a transaction (drizzle returns `{ rows }` on both drivers). */
export async function rowsOf<T>(tx: Tx | Db, query: string | SQL): Promise<T[]> {
  const result = (await tx.execute(typeof query === "string" ? sql.raw(query) : query)) as unknown as { rows: T[] };
  return result.rows;
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface TableInfo {
  name: string;
  /** Stored columns in order (generated ones are left out: PostgreSQL computes them again). */
  columns: string[];
}

/** The install's tables and their stored columns, in the current schema. */
export async function listTables(tx: Tx | Db): Promise<TableInfo[]> {
  const rows = await rowsOf<{ table_name: string; columns: string[] | string }>(
    tx,
    `select c.relname as table_name,
            array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where c.relkind in ('r', 'p')
      group by c.relname
      order by c.relname`,
  );
  return rows.map((row) => ({ name: row.table_name, columns: parseTextArray(row.columns) }));
}

/** A text[] as the driver gave it: an array already, or PostgreSQL's `{a,b}` literal. */
export function parseTextArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, "");
  if (!inner) return [];
  return inner.split(",").map((item) => item.replace(/^"|"$/g, "").replace(/\\"/g, '"'));
}
