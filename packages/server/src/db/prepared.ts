import { type Column, fillPlaceholders, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Db } from "./client.js";
import { fastRows } from "./fast-rows.js";
import { runPipelined, runReadsTogether } from "./pipeline.js";

/**
 * Prepared statements of the hot paths, built once per database handle (issue 10 item 3): building
 * a drizzle query afresh costs more Node CPU than running it. Drizzle's statements belong to the
 * handle they were prepared on (on node-postgres the name is prepared per pooled connection, which
 * the driver tracks), so the cache is keyed by the handle and dies with it.
 */
const caches = new WeakMap<Db, Map<string, unknown>>();

export function prepared<T>(db: Db, name: string, build: (db: Db, name: string) => T): T {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(name) as T | undefined;
  if (statement === undefined) {
    // Issue 24: their rows mapped by a loop compiled once (fast-rows.ts), not field by field.
    statement = fastRows(build(db, name));
    cache.set(name, statement);
  }
  return statement;
}

/**
 * Issue 24: a placeholder the planner cannot look into (a scalar subquery, run once per execution).
 * A prepared statement is planned for its values ("custom" plans) until PostgreSQL finds the plan
 * without them ("generic") no dearer; values that only move the estimates kept the generic plan
 * dearer on paper, so a statement was planned anew on every execution. The inbound batch's tickets
 * and touch statements: their lists (1 row on a lone message, 10 guessed without it), the
 * connection (one the statistics do not know yet looked empty) and the window's start. The inbox's
 * page and count: their status, limit and offset (a 6-join statement planned for every list cost
 * 2–3 ms of the database's CPU, more than running it). Behind a subquery both plans estimate the
 * value alike and the generic plan is kept after five executions (plan-cache.test.ts;
 * docs/benchmarks.md measures the plans it keeps). Only for values that do not change the plan's
 * shape.
 */
export type OpaqueType = "int" | "bigint" | "text" | "timestamptz" | "boolean" | "int[]" | "text[]" | "timestamptz[]";

export function opaque(name: string, type: OpaqueType): SQL {
  return sql`(select ${sql.placeholder(name)}::${sql.raw(type)})`;
}

/** How many statements this handle holds (tests prove the hot paths reuse theirs). */
export function preparedCount(db: Db): number {
  return caches.get(db)?.size ?? 0;
}

/**
 * Issue 24 item 1: a statement whose SQL text is rendered once per process (from drizzle's `sql`,
 * its parameters `sql.placeholder`s) and sent by name: node-postgres parses it once per pooled
 * connection and then sends only its name and values. Unlike `prepared()`, it runs on any handle,
 * a transaction's included (a drizzle prepared statement belongs to the session it was built on, and
 * every transaction has a session of its own). Its rows are the driver's (snake_case, timestamps
 * and dates as text, as drizzle reads them); `rowOf` maps a table's columns.
 */
export interface NamedStatement {
  name: string;
  text: string;
  params: unknown[];
}

const dialect = new PgDialect();

export function namedStatement(name: string, query: SQL): NamedStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name, text, params };
}

// drizzle's own type parsers (node-postgres/session.js): these types reach the columns' mappers as text.
const AS_TEXT = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231,
  1115,
  1185,
  1187,
  1182,
]);
const asText = (value: string) => value;
const types = {
  getTypeParser: (id: number, format?: string) => (AS_TEXT.has(id) ? asText : pg.types.getTypeParser(id, format as "text")),
} as pg.CustomTypesConfig;

/** The driver's handle under `db`: the pool, or a transaction's connection. */
const clientOf = (db: Db) => (db as unknown as { session: { client: pg.Pool | pg.ClientBase } }).session.client;

/** Run a named statement on `db` (the pool, or a transaction's connection) with its placeholders' values. */
export async function runNamed<R = Record<string, unknown>>(
  db: Db,
  statement: NamedStatement,
  values: Record<string, unknown>,
): Promise<R[]> {
  const client = clientOf(db);
  const result = await client.query({
    name: statement.name,
    text: statement.text,
    values: fillPlaceholders(statement.params, values),
    types,
  });
  return result.rows as R[];
}

/**
 * Issue 24 item 1: named statements of a transaction that do not wait on each other's answers, in
 * one round trip when they can be (db/pipeline.ts), else one after another. Their rows, in order.
 */
export async function runNamedTogether(
  db: Db,
  steps: [statement: NamedStatement, values: Record<string, unknown>][],
): Promise<Record<string, unknown>[][]> {
  const client = clientOf(db);
  return runPipelined(
    client,
    steps.map(([statement, values]) => ({
      name: statement.name,
      text: statement.text,
      values: fillPlaceholders(statement.params, values),
    })),
    types,
  );
}

/** A table's row from the driver's (columns by their database names), mapped as drizzle maps it. */
export function rowOf<C extends Record<string, Column>>(columns: C) {
  const entries = Object.entries(columns);
  return (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of entries) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row;
  };
}

/**
 * Issue 24 item 2: a read by a statement of `prepared()` (a drizzle prepared select whose rows
 * fast-rows.ts maps), its placeholders' values, and what its rows make. `runRead` runs it alone;
 * `readTogether` runs several in one round trip (db/pipeline.ts `runReadsTogether`).
 */
export interface Read<T> {
  statement: unknown;
  values: Record<string, unknown>;
  result(rows: unknown[]): T;
}

/** A read of `statement` (built by `prepared()`) with `values`, its rows made into `result`'s answer. */
export function readOf<Row, T>(
  statement: { execute(values: Record<string, unknown>): Promise<Row[]> },
  values: Record<string, unknown>,
  result: (rows: Row[]) => T,
): Read<T> {
  return { statement, values, result: result as (rows: unknown[]) => T };
}

/** drizzle's prepared select on node-postgres, as its `execute` reads it (drizzle's internals). */
interface PreparedSelect {
  queryConfig: { name?: string; text: string };
  params: unknown[];
  customResultMapper?: (rows: unknown[][]) => Record<string, unknown>[];
  execute(values: Record<string, unknown>): Promise<Record<string, unknown>[]>;
}

export async function runRead<T>(read: Read<T>): Promise<T> {
  return read.result(await (read.statement as PreparedSelect).execute(read.values));
}

/** What a read sends: its statement's name and text, and the values in the placeholders' order. */
export function sentOf(read: Read<unknown>): { name: string; text: string; values: unknown[] } {
  const statement = read.statement as PreparedSelect;
  const { name, text } = statement.queryConfig;
  // Sent by name, mapped by its compiled loop: a statement without either is a mistake in the code.
  if (!name || !statement.customResultMapper) throw new Error(`"${name}" is not a statement of prepared()`);
  return { name, text, values: fillPlaceholders(statement.params, read.values) };
}

export async function readTogether<T extends unknown[]>(db: Db, reads: { [K in keyof T]: Read<T[K]> }): Promise<T> {
  const results = await runReadsTogether(clientOf(db), reads.map(sentOf), types);
  return reads.map((read, i) => {
    const map = (read.statement as PreparedSelect).customResultMapper!;
    return read.result(map(results[i] as unknown[][]));
  }) as T;
}
