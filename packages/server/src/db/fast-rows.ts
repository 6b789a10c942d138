import { Column, getTableName, is, SQL, Subquery } from "drizzle-orm";

/**
 * Issue 24: a prepared select's rows mapped by a loop compiled once per statement, instead of
 * drizzle's `mapResultRow`, which works out every field's kind (`is()` up the prototype chain, up
 * to four times), walks its path and rebuilds the left joins' null objects for every row: 0.35–0.45
 * ms of Node's CPU on a page of 40 joined tickets (the inbox's and the search's), more than the
 * driver's own parsing. The result is the same object, field for field (fast-rows.test.ts compares
 * the two on the same rows, null joins included).
 *
 * It sets the prepared query's `customResultMapper` (which drizzle calls with the driver's rows, in
 * array mode, instead of `mapResultRow`) from its `fields` and `joinsNotNullableMap`: drizzle's
 * internals, so a drizzle upgrade that moves them fails fast-rows.test.ts, and a statement whose
 * shape it does not know (a path deeper than two) keeps drizzle's mapping.
 */

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

interface DrizzlePrepared {
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown[];
  execute: unknown;
}

const isPrepared = (value: unknown): value is DrizzlePrepared =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as DrizzlePrepared).execute === "function" &&
  Array.isArray((value as DrizzlePrepared).fields);

/** An SQL's decoder (`mapWith`): internal to drizzle, as mapResultRow reads it. */
const decoderOfSql = (value: SQL): Decoder => (value as unknown as { decoder: Decoder }).decoder;

function decoderOf(field: unknown): Decoder | undefined {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql((field._ as unknown as { sql: SQL }).sql);
  if (is(field, SQL.Aliased)) return decoderOfSql(field.sql);
  return undefined;
}

/** The row mapper of a prepared select, or undefined when it is not one this knows. */
export function compileRowMapper(statement: DrizzlePrepared): ((row: unknown[]) => Record<string, unknown>) | undefined {
  const { fields, joinsNotNullableMap } = statement;
  if (!fields?.length) return undefined;
  const steps: { parent: string | undefined; key: string; decoder: Decoder; opens: boolean }[] = [];
  const opened = new Set<string>();
  // Per nested object: its first column (by position) and whether all its columns are of one table.
  const objects = new Map<string, { first: number; table: string; oneTable: boolean }>();
  for (const [index, { path, field }] of fields.entries()) {
    const decoder = decoderOf(field);
    if (!decoder || path.length < 1 || path.length > 2) return undefined;
    const parent = path.length === 2 ? path[0] : undefined;
    const opens = parent !== undefined && !opened.has(parent);
    if (parent !== undefined) opened.add(parent);
    steps.push({ parent, key: path[path.length - 1], decoder, opens });
    if (parent !== undefined && is(field, Column)) {
      const table = getTableName(field.table);
      const object = objects.get(parent);
      if (!object) objects.set(parent, { first: index, table, oneTable: true });
      else if (object.table !== table) object.oneTable = false;
    }
  }
  // A left-joined table's object is null when its first column is (drizzle's rule).
  const nullable = joinsNotNullableMap
    ? [...objects].filter(([, o]) => o.oneTable && !joinsNotNullableMap[o.table]).map(([name, o]) => ({ name, first: o.first }))
    : [];
  const count = steps.length;
  return (row) => {
    const result: Record<string, unknown> = {};
    let node: Record<string, unknown> = result;
    for (let i = 0; i < count; i++) {
      const step = steps[i];
      if (step.parent === undefined) node = result;
      else if (step.opens) {
        node = {};
        result[step.parent] = node;
      } else node = result[step.parent] as Record<string, unknown>;
      const raw = row[i];
      node[step.key] = raw === null ? null : step.decoder.mapFromDriverValue(raw);
    }
    for (const object of nullable) {
      if ((result[object.name] as Record<string, unknown>)[steps[object.first].key] === null) result[object.name] = null;
    }
    return result;
  };
}

/** `statement` (a drizzle prepared select, or an object of them) with its rows mapped by compiled loops. */
export function fastRows<T>(statement: T): T {
  const targets = isPrepared(statement)
    ? [statement]
    : typeof statement === "object" && statement !== null
      ? Object.values(statement).filter(isPrepared)
      : [];
  for (const target of targets) {
    const map = compileRowMapper(target);
    if (map && !target.customResultMapper) target.customResultMapper = (rows) => rows.map(map);
  }
  return statement;
}
