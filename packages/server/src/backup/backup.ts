import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import type { Database } from "../db/client.js";
import type { MediaStorage } from "../media/storage.js";
import { BACKUP_FORMAT, BACKUP_VERSION, FRAME, frameWriter, type Manifest, type Trailer } from "./format.js";
import { listTables, quoteIdent, rowsOf } from "./snapshot.js";

/** Rows fetched from the snapshot at a time, and the most text gathered into one frame. */
const FETCH_ROWS = 500;
const FRAME_TEXT = 512 * 1024;

export interface BackupOptions {
  database: Database;
  storage: MediaStorage;
  mediaKind: "local" | "s3";
  /** Called after each table (the CLI prints progress). */
  onProgress?: (step: { table?: string; rows?: number; files?: number }) => void;
}

/**
 * Writes a consistent backup of a running install to `out`: every table as it was in one
 * REPEATABLE READ snapshot (writes go on meanwhile and are simply not in it), then every media
 * file those rows name. Rows are read through a cursor and files streamed, so memory stays flat
 * however large the install; the list of files goes through a temporary file for the same reason.
 */
export async function writeBackup(out: Writable, options: BackupOptions): Promise<Trailer> {
  const { database, storage } = options;
  const writer = frameWriter(out);
  const scratch = await mkdtemp(join(tmpdir(), "zapdesk-backup-"));
  const mediaList = join(scratch, "media.txt");
  const trailer: Trailer = { tables: {}, files: 0, bytes: 0, missing: 0 };
  try {
    await database.db.transaction(
      async (tx) => {
        const migrations = await rowsOf<{ name: string }>(tx, "select name from zapdesk_migrations order by name");
        const manifest: Manifest = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          createdAt: new Date().toISOString(),
          migrations: migrations.map((m) => m.name),
          media: options.mediaKind,
        };
        await writer.json(FRAME.manifest, manifest);
        const paths = createWriteStream(mediaList);
        // The migrations table is the manifest's list; a restore records them as it applies them.
        for (const table of (await listTables(tx)).filter((t) => t.name !== "zapdesk_migrations")) {
          trailer.tables[table.name] = await copyTable(tx, table, writer);
          if (table.columns.includes("media_path")) await listMedia(tx, table.name, paths);
          options.onProgress?.({ table: table.name, rows: trailer.tables[table.name] });
        }
        await new Promise<void>((resolve, reject) => paths.end((error?: Error | null) => (error ? reject(error) : resolve())));
        const sequences = await rowsOf<{ name: string; value: string | null }>(
          tx,
          "select sequencename as name, last_value::text as value from pg_sequences where schemaname = current_schema() order by 1",
        );
        await writer.json(FRAME.sequences, sequences);
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    // The files after the snapshot's transaction: files are never rewritten under their name, so
    // reading them later is consistent; one deleted meanwhile is recorded as missing.
    const seen = new Set<string>();
    for await (const path of createInterface({ input: createReadStream(mediaList), crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!path || seen.has(path)) continue;
      seen.add(path);
      await copyFile(storage, path, writer, trailer);
      if (trailer.files % 100 === 0) options.onProgress?.({ files: trailer.files });
    }
    await writer.json(FRAME.trailer, trailer);
    await writer.end();
    return trailer;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function copyTable(
  tx: Parameters<typeof rowsOf>[0],
  table: { name: string; columns: string[] },
  writer: ReturnType<typeof frameWriter>,
): Promise<number> {
  await writer.json(FRAME.table, table);
  const cursor = `zapdesk_backup_${table.name}`.slice(0, 60);
  const columns = table.columns.map(quoteIdent).join(", ");
  // row_to_json gives every type in PostgreSQL's own text form (timestamps to the microsecond,
  // bytea as hex, jsonb as JSON), which json_populate_recordset reads back exactly.
  await rowsOf(
    tx,
    `declare ${quoteIdent(cursor)} no scroll cursor for select row_to_json(r)::text as j from (select ${columns} from ${quoteIdent(table.name)}) r`,
  );
  let rows = 0;
  let text = "";
  for (;;) {
    const batch = await rowsOf<{ j: string }>(tx, `fetch ${FETCH_ROWS} from ${quoteIdent(cursor)}`);
    for (const row of batch) {
      text += `${row.j}\n`;
      if (text.length >= FRAME_TEXT) {
        await writer.frame(FRAME.rows, text);
        text = "";
      }
    }
    rows += batch.length;
    if (batch.length < FETCH_ROWS) break;
  }
  if (text) await writer.frame(FRAME.rows, text);
  await rowsOf(tx, `close ${quoteIdent(cursor)}`);
  await writer.json(FRAME.tableEnd, { rows });
  return rows;
}

async function listMedia(tx: Parameters<typeof rowsOf>[0], table: string, out: Writable) {
  const cursor = `zapdesk_media_${table}`.slice(0, 60);
  await rowsOf(
    tx,
    `declare ${quoteIdent(cursor)} no scroll cursor for select distinct media_path as p from ${quoteIdent(table)} where media_path is not null`,
  );
  for (;;) {
    const batch = await rowsOf<{ p: string }>(tx, `fetch 1000 from ${quoteIdent(cursor)}`);
    for (const { p } of batch) if (!out.write(`${p}\n`)) await new Promise((resolve) => out.once("drain", resolve));
    if (batch.length < 1000) break;
  }
  await rowsOf(tx, `close ${quoteIdent(cursor)}`);
}

async function copyFile(storage: MediaStorage, path: string, writer: ReturnType<typeof frameWriter>, trailer: Trailer) {
  const file = await storage.open(path);
  if (!file) {
    await writer.json(FRAME.missing, { path });
    trailer.missing++;
    return;
  }
  await writer.json(FRAME.file, { path, size: file.size });
  let size = 0;
  for await (const chunk of file.stream) {
    const data = chunk as Buffer;
    size += data.length;
    await writer.frame(FRAME.data, data);
  }
  await writer.json(FRAME.fileEnd, { size });
  trailer.files++;
  trailer.bytes += size;
}
