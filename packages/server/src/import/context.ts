import { type SQL, sql } from "drizzle-orm";
import type { Database, Db } from "../db/client.js";
import type { MediaStorage } from "../media/storage.js";
import { str } from "./convert.js";
import { type Flavour, MULTI_COMPANY } from "./flavours.js";
import { type Entity, type EntityCounts, emptyReport, type ImportReport, type Progress } from "./report.js";
import type { Row, Source } from "./source.js";

export interface ImportOptions {
  source: Source;
  flavour: Flavour;
  database: Database;
  /** Where copied media goes; without it (or in a dry run) files are only looked for. */
  storage?: MediaStorage;
  /** The old backend's public/ (and Ticketz's private/) folders. */
  mediaDirs?: string[];
  company?: number;
  dryRun?: boolean;
  batchSize?: number;
  maxMediaBytes?: number;
  /**
   * Move each connection's Baileys auth state (SaaS baseline, Ticketz) into ours, so the number
   * needs no new QR. Only when the old server is stopped: two clients on one session fight.
   */
  adoptSessions?: boolean;
  onProgress?: (progress: Progress) => void;
  /** Tests: called after each committed batch (a throw here interrupts the run like a kill). */
  afterBatch?: (entity: Entity, batch: number) => void | Promise<void>;
}

/**
 * What the import writes in this transaction is history, not events: no automation rule fires on it
 * and no outbound webhook hears of it (migration 0043's `zapdesk_importing()`).
 */
export async function markImporting(tx: Db): Promise<void> {
  await q(tx, "select set_config('zapdesk.importing', 'on', true)");
}

/** Raw SQL with $n placeholders inside a drizzle transaction. */
export async function q<T = Row>(tx: Db, text: string, params: unknown[] = []): Promise<T[]> {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [sql.raw(parts[0] ?? "")];
  for (let i = 1; i < parts.length; i += 2) {
    chunks.push(sql`${sql.param(params[Number(parts[i]) - 1])}`);
    chunks.push(sql.raw(parts[i + 1] ?? ""));
  }
  const result = (await tx.execute(sql.join(chunks, sql``))) as unknown as { rows: T[] };
  return result.rows;
}

/** Why a row failed, for the report: the database's own message (drizzle wraps it in "Failed query: …"). */
export function failure(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return `failed: ${message.split("\n")[0]}`;
}

/** Identity of a source for import_map: dialect, database name and company. */
export function sourceKey(source: Source, company?: number): string {
  return `${source.dialect}/${source.database}${company === undefined ? "" : `#${company}`}`;
}

/**
 * The condition for the rows after `last` in key order. PostgreSQL compares rows through the index;
 * MySQL/MariaDB's range optimizer only reads the expanded form (a > x or (a = x and b > y)).
 */
function keysetAfter(dialect: Source["dialect"], table: string, keys: string[], last: unknown[]): [string, unknown[]] {
  const cols = keys.map((k) => `"${table}"."${k}"`);
  if (dialect === "postgres" || keys.length === 1) {
    return [` and (${cols.join(", ")}) > (${keys.map(() => "?").join(", ")})`, last];
  }
  const terms: string[] = [];
  const params: unknown[] = [];
  for (let i = 0; i < keys.length; i++) {
    terms.push(`(${[...cols.slice(0, i).map((c) => `${c} = ?`), `${cols[i]} > ?`].join(" and ")})`);
    params.push(...last.slice(0, i), last[i]);
  }
  return [` and (${terms.join(" or ")})`, params];
}

export type Pair = { sourceId: string; targetId: number; merged: boolean };

/** One import run: the source, the target, the report, and the helpers every entity's step shares. */
export interface Run {
  options: ImportOptions;
  source: Source;
  database: Database;
  flavour: Flavour;
  multi: boolean;
  company?: number;
  /** import_map.source of this run. */
  key: string;
  batchSize: number;
  report: ImportReport;
  /** Ticketz stores acks on WhatsApp's scale; the SaaS baseline reuses one ticket row per session. */
  ticketz: boolean;
  splitSessions: boolean;
  /** Whether a message's source id carries its ticket (Ticketz keys Messages by (id, ticketId)). */
  compositeMessageIds: boolean;
  /** The source id of a message: ticket and id where the same WhatsApp id may sit in two tickets. */
  messageSourceId(row: Row): string;
  counts(entity: Entity): EntityCounts;
  skip(entity: Entity, sourceId: unknown, reason: string): void;
  /** Whether the source has a table (and a column of it). */
  has(table: string, column?: string): boolean;
  /** A column, or NULL under its name when this flavour's table lacks it. */
  col(table: string, column: string, alias?: string): string;
  /** The condition limiting a table to the chosen company ("1=1" for a single-company source). */
  byCompany(table: string): string;
  keySelect(table: string, keys: string[]): string;
  /** A transaction per batch; a dry run nests every batch in one transaction rolled back at the end. */
  inBatch<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  mapped(tx: Db, entity: string, ids: string[]): Promise<Map<string, number>>;
  remember(tx: Db, entity: string, pairs: Pair[]): Promise<void>;
  /**
   * Keyset pages of a source table (`keys` selected as `__k_<key>` by keySelect): each page one
   * query that an index on the keys answers, so memory stays flat and no page costs more than the first.
   */
  pages(table: string, select: string, keys: string[], where: string, handle: (rows: Row[]) => Promise<void>): Promise<void>;
  /** The source table's primary key columns (the cheapest order to page it in), or `fallback`. */
  keysOf(table: string, fallback: string[]): Promise<string[]>;
  /** Keyset scan of a source table in batches, with progress. */
  scan(
    entity: Entity,
    table: string,
    select: string,
    keys: string[],
    where: string,
    handle: (rows: Row[]) => Promise<void>,
  ): Promise<void>;
  /**
   * Import rows one by one inside a batch transaction; a row that fails is retried alone in a
   * savepoint after the batch is rolled back, so one bad row never costs the others.
   */
  rowByRow(entity: Entity, rows: Row[], one: (tx: Db, row: Row) => Promise<void>): Promise<void>;
  /**
   * Run a whole-batch attempt; when it throws, the report is put back as it was before it (counts
   * of `entity`, skips, merges, adjustments, media) and false is returned for a slower path to take over.
   */
  attempt(entity: Entity, fn: () => Promise<void>): Promise<boolean>;
  /** Set while a dry run's outer transaction is open. */
  outer?: Db;
}

export async function createRun(options: ImportOptions, company: number | undefined): Promise<Run> {
  const { source, flavour, database } = options;
  const multi = MULTI_COMPANY.has(flavour);
  const tables = await source.columns();
  const key = sourceKey(source, company);
  const report = emptyReport(flavour, key, company, !!options.dryRun);
  const batchSize = options.batchSize ?? 1000;
  const compositeMessageIds = flavour === "ticketz" || flavour === "saas" || flavour === "multiflow";
  let batchNo = 0;

  const run: Run = {
    options,
    source,
    database,
    flavour,
    multi,
    company,
    key,
    batchSize,
    report,
    ticketz: flavour === "ticketz",
    splitSessions: false,
    compositeMessageIds,
    messageSourceId: (row) => (compositeMessageIds ? `${str(row.ticketId)}:${str(row.id)}` : str(row.id)),
    counts: (entity) => report.entities[entity],
    skip(entity, sourceId, reason) {
      report.entities[entity].skipped++;
      report.skips.push({ entity, sourceId: str(sourceId), reason });
    },
    has(table, column) {
      const cols = tables.get(table);
      return !!cols && (column === undefined || cols.has(column));
    },
    col: (table, column, alias = column) =>
      run.has(table, column) ? `"${table}"."${column}" as "${alias}"` : `null as "${alias}"`,
    byCompany: (table) => (multi && run.has(table, "companyId") ? `"${table}"."companyId" = ${company}` : "1=1"),
    keySelect: (table, keys) => keys.map((k) => `"${table}"."${k}" as "__k_${k}"`).join(", "),
    inBatch: (fn) =>
      run.outer
        ? run.outer.transaction((tx) => fn(tx as unknown as Db))
        : database.db.transaction(async (tx) => {
            // No wait for the WAL flush at each batch's commit: a crash can lose the last batches,
            // and with them their import_map rows (same transaction), so a second run imports them.
            await q(tx as unknown as Db, "set local synchronous_commit = off");
            await markImporting(tx as unknown as Db);
            return fn(tx as unknown as Db);
          }),

    async mapped(tx, entity, ids) {
      if (!ids.length) return new Map();
      const rows = await q<{ source_id: string; target_id: string }>(
        tx,
        "select source_id, target_id from import_map where source = $1 and entity = $2 and source_id = any($3::text[])",
        [key, entity, ids],
      );
      return new Map(rows.map((r) => [r.source_id, Number(r.target_id)]));
    },

    async remember(tx, entity, pairs) {
      if (!pairs.length) return;
      await q(
        tx,
        `insert into import_map (source, entity, source_id, target_id, merged)
         select $1, $2, * from unnest($3::text[], $4::bigint[], $5::boolean[]) on conflict do nothing`,
        [key, entity, pairs.map((p) => p.sourceId), pairs.map((p) => p.targetId), pairs.map((p) => p.merged)],
      );
    },

    async pages(table, select, keys, where, handle) {
      const keyList = keys.map((k) => `"${table}"."${k}"`).join(", ");
      const read = (last?: unknown[]) => {
        const [after, params] = last ? keysetAfter(source.dialect, table, keys, last) : ["", []];
        return source.page(
          `select ${select} from "${table}" where ${where}${after} order by ${keyList} limit ${batchSize}`,
          params,
        );
      };
      let next = read();
      for (;;) {
        const rows = await next;
        if (!rows.length) break;
        const lastRow = rows[rows.length - 1] as Row;
        const full = rows.length === batchSize;
        // The next page is read while this one is written: the old database and ours work at once.
        if (full) {
          next = read(keys.map((k) => lastRow[`__k_${k}`]));
          next.catch(() => {}); // awaited on the next turn; a run stopped before that must not leave it unhandled
        }
        await handle(rows);
        if (!full) break;
      }
    },

    async scan(entity, table, select, keys, where, handle) {
      const [{ n }] = await source.query<{ n: number | string }>(`select count(*) as "n" from "${table}" where ${where}`);
      const total = Number(n);
      run.counts(entity).source += total;
      const started = Date.now();
      let done = 0;
      await run.pages(table, select, keys, where, async (rows) => {
        await handle(rows);
        done += rows.length;
        const seconds = Math.max((Date.now() - started) / 1000, 0.001);
        const perSecond = done / seconds;
        options.onProgress?.({
          entity,
          done,
          total,
          perSecond,
          etaSeconds: perSecond > 0 ? Math.max(0, (total - done) / perSecond) : 0,
        });
        await options.afterBatch?.(entity, ++batchNo);
      });
    },

    async keysOf(table, fallback) {
      const pk = await source.primaryKey(table);
      return pk.length && pk.every((k) => run.has(table, k)) ? pk : fallback;
    },

    async rowByRow(entity, rows, one) {
      const whole = await run.attempt(entity, () =>
        run.inBatch(async (tx) => {
          for (const row of rows) await one(tx, row);
        }),
      );
      if (whole) return;
      await run.inBatch(async (tx) => {
        for (const row of rows) {
          try {
            await tx.transaction((sp) => one(sp as unknown as Db, row));
          } catch (error) {
            run.skip(entity, row.id ?? row.__k_id, failure(error));
          }
        }
      });
    },

    async attempt(entity, fn) {
      const snapshot = { ...run.counts(entity) };
      const media = { ...report.media };
      const lengths = [report.skips.length, report.merges.length, report.adjustments.length] as const;
      try {
        await fn();
        return true;
      } catch {
        Object.assign(run.counts(entity), snapshot);
        report.skips.length = lengths[0];
        report.merges.length = lengths[1];
        report.adjustments.length = lengths[2];
        report.media = media;
        return false;
      }
    },
  };
  run.splitSessions = flavour === "saas" && run.has("TicketTraking", "ticketId");
  return run;
}
