import { PassThrough, type Readable } from "node:stream";
import { sql } from "drizzle-orm";
import type { Database, Db, Tx } from "../db/client.js";
import { listMigrations } from "../db/migrate.js";
import type { MediaStorage, StoredFile } from "../media/storage.js";
import { recordAudit } from "../modules/audit/audit.js";
import { BACKUP_FORMAT, BackupFormatError, FRAME, type Manifest, readFrames, type Trailer } from "./format.js";
import { listTables, quoteIdent, rowsOf } from "./snapshot.js";

/** Rows inserted per statement, and the most JSON text gathered for one statement. */
const INSERT_ROWS = 1000;
const INSERT_TEXT = 4 * 1024 * 1024;

export class RestoreError extends Error {}

export interface RestoreReport {
  createdAt: string;
  migrations: { fromBackup: number; appliedAfter: string[] };
  tables: { name: string; rows: number }[];
  sequences: number;
  files: number;
  bytes: number;
  /** Files the backup recorded as already gone from the source's storage. */
  missing: string[];
}

export interface RestoreOptions {
  database: Database;
  storage: MediaStorage;
  /** Replace whatever the target holds (otherwise a target with data is refused). */
  force?: boolean;
  onProgress?: (step: { table?: string; rows?: number; files?: number }) => void;
}

/**
 * Restores a backup into an empty database (and its media into `storage`), verified: the schema
 * is the backup's own migrations, rows go in with foreign keys set aside and user triggers off
 * (so nothing fires twice: no webhook is queued, no metric stamped again), every foreign key is
 * then put back and checked, the remaining migrations run, sequences continue after the highest
 * id, and every table's row count and every file's size must match the backup's.
 * The database part is one transaction: a restore that fails leaves the target as it was.
 */
export async function restoreBackup(input: Readable, options: RestoreOptions): Promise<RestoreReport> {
  const frames = readFrames(input);
  const first = await frames.next();
  if (first.done || first.value.type !== FRAME.manifest) throw new RestoreError("not a Zapdesk backup (no manifest)");
  const manifest = JSON.parse(first.value.payload.toString()) as Manifest;
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreError("not a Zapdesk backup");
  if (manifest.version > 1) throw new RestoreError(`backup format ${manifest.version} is newer than this Zapdesk understands`);
  const known = listMigrations();
  const unknown = manifest.migrations.filter((name) => !known.some((m) => m.name === name));
  if (unknown.length)
    throw new RestoreError(`the backup comes from a newer Zapdesk (migrations ${unknown.join(", ")}): upgrade first`);

  const report: RestoreReport = {
    createdAt: manifest.createdAt,
    migrations: { fromBackup: manifest.migrations.length, appliedAfter: [] },
    tables: [],
    sequences: 0,
    files: 0,
    bytes: 0,
    missing: [],
  };
  let trailer: Trailer | undefined;

  await options.database.db.transaction(async (tx) => {
    await prepareTarget(tx, options.force ?? false);
    const backupMigrations = known.filter((m) => manifest.migrations.includes(m.name));
    await applyMigrations(tx, backupMigrations);
    const tables = new Map((await listTables(tx)).map((t) => [t.name, t]));
    const foreignKeys = await dropForeignKeys(tx);
    for (const name of tables.keys()) await rowsOf(tx, `alter table ${quoteIdent(name)} disable trigger user`);

    let table: { name: string; columns: string[] } | undefined;
    let loader: ReturnType<typeof tableLoader> | undefined;
    let file: { path: string; sink: PassThrough; saved: Promise<StoredFile>; size: number } | undefined;
    let sequences: { name: string; value: string | null }[] = [];

    for await (const { type, payload } of frames) {
      if (type === FRAME.table) {
        table = JSON.parse(payload.toString());
        const target = tables.get(table!.name);
        const absent = table!.columns.filter((c) => !target?.columns.includes(c));
        if (!target || absent.length)
          throw new RestoreError(`table ${table!.name} does not match the schema (${absent.join(", ")})`);
        loader = tableLoader(tx, table!);
      } else if (type === FRAME.rows) {
        if (!loader) throw new BackupFormatError("rows outside a table");
        await loader.add(payload);
      } else if (type === FRAME.tableEnd) {
        const expected = (JSON.parse(payload.toString()) as { rows: number }).rows;
        const loaded = await loader!.finish();
        if (loaded !== expected) throw new RestoreError(`table ${table!.name}: ${loaded} rows read, the backup says ${expected}`);
        options.onProgress?.({ table: table!.name, rows: loaded });
        loader = undefined;
      } else if (type === FRAME.sequences) {
        sequences = JSON.parse(payload.toString());
      } else if (type === FRAME.file) {
        const { path } = JSON.parse(payload.toString()) as { path: string };
        const sink = new PassThrough();
        const ext = path.split(".").pop() ?? "bin";
        file = {
          path,
          sink,
          size: 0,
          saved: options.storage.saveStream(sink, ext, { maxBytes: Number.MAX_SAFE_INTEGER, key: path }),
        };
        file.saved.catch(() => {});
      } else if (type === FRAME.data) {
        if (!file) throw new BackupFormatError("file data outside a file");
        file.size += payload.length;
        // Waits for the storage to take more, or fails with it (a bucket refusing the upload).
        if (!file.sink.write(payload))
          await Promise.race([new Promise((resolve) => file!.sink.once("drain", resolve)), file.saved]);
      } else if (type === FRAME.fileEnd) {
        file!.sink.end();
        const stored = await file!.saved;
        if (stored.size !== file!.size)
          throw new RestoreError(`media ${file!.path}: ${stored.size} bytes stored of ${file!.size}`);
        report.files++;
        report.bytes += stored.size;
        if (report.files % 100 === 0) options.onProgress?.({ files: report.files });
        file = undefined;
      } else if (type === FRAME.missing) {
        report.missing.push((JSON.parse(payload.toString()) as { path: string }).path);
      } else if (type === FRAME.trailer) {
        trailer = JSON.parse(payload.toString());
      }
    }
    if (!trailer) throw new RestoreError("the backup is cut short (no trailer): it was not written to the end");

    // Every foreign key back, which checks every row against it.
    for (const fk of foreignKeys)
      await rowsOf(tx, `alter table ${quoteIdent(fk.table)} add constraint ${quoteIdent(fk.name)} ${fk.definition}`);
    for (const name of tables.keys()) await rowsOf(tx, `alter table ${quoteIdent(name)} enable trigger user`);
    report.migrations.appliedAfter = await applyMigrations(
      tx,
      known.filter((m) => !manifest.migrations.includes(m.name)),
    );
    report.sequences = await resetSequences(tx, sequences);
    for (const [name, rows] of Object.entries(trailer.tables)) {
      const [{ n }] = await rowsOf<{ n: string | number }>(tx, `select count(*) as n from ${quoteIdent(name)}`);
      if (Number(n) !== rows) throw new RestoreError(`table ${name}: ${n} rows after the restore, the backup has ${rows}`);
      report.tables.push({ name, rows });
    }
    // Issue 22 §4: the restore itself goes into the trail it restored (after the counts above).
    await recordAudit(tx as unknown as Db, {
      action: "backup.restored",
      targetType: "backup",
      who: { userId: null, name: "restore (command line)" },
      details: { backupCreatedAt: manifest.createdAt, files: report.files },
    });
  });

  if (trailer && report.files !== trailer.files)
    throw new RestoreError(`${report.files} media files restored, the backup has ${trailer.files}`);
  return report;
}

/** The target must hold no Zapdesk data; with `force` whatever it holds is dropped first. */
async function prepareTarget(tx: Tx, force: boolean) {
  const existing = await listTables(tx);
  if (!existing.length) return;
  if (!force) {
    for (const table of existing) {
      if (table.name === "zapdesk_migrations") continue;
      const rows = await rowsOf(tx, `select 1 from ${quoteIdent(table.name)} limit 1`);
      if (rows.length) {
        throw new RestoreError(
          `the target database already holds data (table ${table.name}): restore into an empty one, or add --force to replace it`,
        );
      }
    }
  }
  // Dropped and made again from the migrations: the backup's schema, not whatever was there.
  for (const table of existing) await rowsOf(tx, `drop table if exists ${quoteIdent(table.name)} cascade`);
  const functions = await rowsOf<{ name: string }>(
    tx,
    `select p.oid::regprocedure::text as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      left join pg_depend d on d.objid = p.oid and d.deptype = 'e'
      where n.nspname = current_schema() and d.objid is null`,
  );
  for (const fn of functions) await rowsOf(tx, `drop function if exists ${fn.name} cascade`);
  const types = await rowsOf<{ name: string }>(
    tx,
    `select t.typname as name from pg_type t join pg_namespace n on n.oid = t.typnamespace
      left join pg_depend d on d.objid = t.oid and d.deptype = 'e'
      where n.nspname = current_schema() and t.typtype = 'e' and d.objid is null`,
  );
  for (const type of types) await rowsOf(tx, `drop type if exists ${quoteIdent(type.name)} cascade`);
}

/** Apply these migrations in order, as db/migrate does, recording each. */
async function applyMigrations(tx: Tx, migrations: { name: string; statements: string[] }[]): Promise<string[]> {
  await rowsOf(
    tx,
    "create table if not exists zapdesk_migrations (name text primary key, applied_at timestamptz not null default now())",
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    for (const statement of migration.statements) await tx.execute(sql.raw(statement));
    await tx.execute(sql`insert into zapdesk_migrations (name) values (${migration.name}) on conflict do nothing`);
    applied.push(migration.name);
  }
  return applied;
}

/** Drop every foreign key of the schema, returning how to put each back. */
async function dropForeignKeys(tx: Tx) {
  const keys = await rowsOf<{ table: string; name: string; definition: string }>(
    tx,
    `select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = current_schema()`,
  );
  const unquoted = keys.map((k) => ({ ...k, table: k.table.replace(/^"|"$/g, "") }));
  for (const fk of unquoted) await rowsOf(tx, `alter table ${quoteIdent(fk.table)} drop constraint ${quoteIdent(fk.name)}`);
  return unquoted;
}

/** Inserts a table's row lines in batches; a line split across two frames is joined first. */
function tableLoader(tx: Tx, table: { name: string; columns: string[] }) {
  const columns = table.columns.map(quoteIdent).join(", ");
  const into = `insert into ${quoteIdent(table.name)} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${quoteIdent(table.name)}, `;
  const statement = (json: string) => sql.join([sql.raw(into), sql`${json}`, sql.raw("::json)")]);
  let partial = "";
  let batch: string[] = [];
  let size = 0;
  let rows = 0;
  async function flush() {
    if (!batch.length) return;
    await tx.execute(statement(`[${batch.join(",")}]`));
    rows += batch.length;
    batch = [];
    size = 0;
  }
  return {
    async add(payload: Buffer) {
      const lines = (partial + payload.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        if (!line) continue;
        batch.push(line);
        size += line.length;
        if (batch.length >= INSERT_ROWS || size >= INSERT_TEXT) await flush();
      }
    },
    async finish() {
      if (partial) {
        batch.push(partial);
        partial = "";
      }
      await flush();
      return rows;
    },
  };
}

/**
 * Every sequence continues after the larger of the backup's value and the highest value in the
 * column it feeds, so the next insert never collides with a restored row.
 */
async function resetSequences(tx: Tx, fromBackup: { name: string; value: string | null }[]): Promise<number> {
  const owned = await rowsOf<{ sequence: string; table: string; column: string }>(
    tx,
    `select s.relname as sequence, t.relname as table, a.attname as column
       from pg_class s
       join pg_namespace n on n.oid = s.relnamespace and n.nspname = current_schema()
       join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i')
       join pg_class t on t.oid = d.refobjid
       join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where s.relkind = 'S'`,
  );
  const backupValue = new Map(fromBackup.map((s) => [s.name, s.value === null ? 0 : Number(s.value)]));
  for (const seq of owned) {
    const [{ m }] = await rowsOf<{ m: string | number | null }>(
      tx,
      `select max(${quoteIdent(seq.column)}) as m from ${quoteIdent(seq.table)}`,
    );
    const next = Math.max(Number(m ?? 0), backupValue.get(seq.sequence) ?? 0);
    if (next > 0) await rowsOf(tx, `select setval('${quoteIdent(seq.sequence)}', ${next}, true)`);
    else await rowsOf(tx, `select setval('${quoteIdent(seq.sequence)}', 1, false)`);
  }
  return owned.length;
}
