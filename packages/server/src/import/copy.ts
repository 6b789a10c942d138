import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Db } from "../db/client.js";
import { q } from "./context.js";

/** The columns the importer writes into messages, in the order of each row's values. */
export const MESSAGE_COLUMNS = [
  ["id", "bigint"],
  ["wid", "text"],
  ["whatsapp_id", "int"],
  ["ticket_id", "int"],
  ["contact_id", "int"],
  ["user_id", "int"],
  ["body", "text"],
  ["from_me", "boolean"],
  ["read", "boolean"],
  ["ack", "int"],
  ["media_type", "text"],
  ["media_path", "text"],
  ["media_name", "text"],
  ["media_error", "text"],
  ["is_deleted", "boolean"],
  ["is_edited", "boolean"],
  ["is_note", "boolean"],
  ["created_at", "timestamptz"],
  ["updated_at", "timestamptz"],
] as const;

const names = MESSAGE_COLUMNS.map(([name]) => name).join(", ");
/** Per connection; a rolled-back batch takes its rows (and a table it created) with it. */
const STAGE = "zapdesk_import_messages";

/**
 * The pg client under a drizzle node-postgres transaction, when there is one: COPY needs the
 * connection itself. Undefined for any other driver, which then takes the multi-row insert.
 */
export function copyClient(tx: Db): pg.ClientBase | undefined {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Client ? client : undefined;
}

/** One value in COPY's text format. */
function field(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? "t" : "f";
  return String(value).replace(/[\\\n\r\t]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"));
}

function* lines(rows: unknown[][]): Generator<string> {
  // A few hundred rows a chunk: the stream is fed without one string the size of the batch.
  for (let i = 0; i < rows.length; i += 500) {
    yield rows
      .slice(i, i + 500)
      .map((row) => `${row.map(field).join("\t")}\n`)
      .join("");
  }
}

/**
 * Insert message rows (values in MESSAGE_COLUMNS' order) and return the ids stored. With COPY
 * (`client`): the rows go into a temporary table, then one INSERT … SELECT moves them, so the
 * statement is the same as the multi-row path's: the same conflict rule (a WhatsApp message
 * already stored is skipped and told apart by its id), the same search column and indexes, the
 * same foreign-key checks, and the first-response trigger once for the whole batch. A row the
 * database refuses fails the statement, and so the batch, as on the multi-row path.
 */
export async function insertMessages(tx: Db, values: unknown[][], client?: pg.ClientBase): Promise<Set<number>> {
  let inserted: { id: string }[];
  if (client) {
    await q(
      tx,
      `create temp table if not exists ${STAGE} (${MESSAGE_COLUMNS.map(([n, t]) => `${n} ${t}`).join(", ")}) on commit delete rows`,
    );
    await pipeline(Readable.from(lines(values)), client.query(copyFrom(`copy ${STAGE} (${names}) from stdin`)));
    // Emptied as it is read: a second batch in the same transaction (a dry run's) starts empty.
    inserted = await q<{ id: string }>(
      tx,
      `with staged as (delete from ${STAGE} returning *)
       insert into messages (${names}) select ${names} from staged on conflict do nothing returning id`,
    );
  } else {
    const column = (i: number) => values.map((v) => v[i]);
    inserted = await q<{ id: string }>(
      tx,
      `insert into messages (${names})
       select * from unnest(${MESSAGE_COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(", ")})
       on conflict do nothing returning id`,
      MESSAGE_COLUMNS.map((_, i) => column(i)),
    );
  }
  return new Set(inserted.map((r) => Number(r.id)));
}
