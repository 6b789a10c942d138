import type { Readable, Writable } from "node:stream";
import { createGunzip, createGzip } from "node:zlib";

/**
 * A backup is one gzip stream of frames: a type byte, a 4-byte big-endian length, the payload.
 * Tables and files are written as a run of frames each, so neither side ever holds a table or a
 * file whole: memory stays bounded by the frame size whatever the install's size.
 */
export const FRAME = {
  /** JSON: the manifest (format, version, migrations, media kind), always first. */
  manifest: 0x4d,
  /** JSON { name, columns }: a table begins. */
  table: 0x54,
  /** Text: rows of the current table, one JSON object per line (PostgreSQL's row_to_json). */
  rows: 0x52,
  /** JSON { rows }: the current table ends. */
  tableEnd: 0x45,
  /** JSON [{ name, value }]: every sequence's value in the snapshot. */
  sequences: 0x53,
  /** JSON { path, size }: a media file begins. */
  file: 0x46,
  /** Bytes of the current media file. */
  data: 0x44,
  /** JSON { size }: the current media file ends. */
  fileEnd: 0x47,
  /** JSON { path }: a file the snapshot names was gone from storage. */
  missing: 0x4e,
  /** JSON { tables: { name: rows }, files, bytes, missing }: the end; a file without it is cut short. */
  trailer: 0x5a,
} as const;

export type FrameType = (typeof FRAME)[keyof typeof FRAME];
export const BACKUP_FORMAT = "zapdesk-backup";
export const BACKUP_VERSION = 1;
/** The largest payload written in one frame; a reader refuses anything much larger as corrupt. */
export const MAX_FRAME = 1024 * 1024;

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** Applied migrations of the source, in order: the schema the rows belong to. */
  migrations: string[];
  /** Where the source's media lived. */
  media: "local" | "s3";
}

export interface Trailer {
  tables: Record<string, number>;
  files: number;
  bytes: number;
  missing: number;
}

/** Writes frames into a gzip stream piped to `out`, waiting whenever the destination is full. */
export function frameWriter(out: Writable) {
  const gzip = createGzip({ level: 6 });
  gzip.pipe(out);
  const failed = new Promise<never>((_, reject) => {
    out.once("error", reject);
    gzip.once("error", reject);
  });
  failed.catch(() => {});

  async function write(chunk: Buffer) {
    if (!gzip.write(chunk)) await Promise.race([new Promise((resolve) => gzip.once("drain", resolve)), failed]);
  }

  return {
    async frame(type: FrameType, payload: Buffer | string) {
      const body = typeof payload === "string" ? Buffer.from(payload) : payload;
      let offset = 0;
      do {
        const part = body.subarray(offset, offset + MAX_FRAME);
        const head = Buffer.alloc(5);
        head[0] = type;
        head.writeUInt32BE(part.length, 1);
        await write(head);
        if (part.length) await write(part);
        offset += MAX_FRAME;
      } while (offset < body.length);
    },
    json(type: FrameType, value: unknown) {
      return this.frame(type, JSON.stringify(value));
    },
    /** Ends the gzip stream and waits until `out` has everything. */
    async end() {
      const finished = new Promise<void>((resolve) => out.once("finish", resolve));
      gzip.end();
      await Promise.race([finished, failed]);
    },
  };
}

export class BackupFormatError extends Error {}

/** The frames of a backup, one at a time (the payload of a large table or file comes in many). */
export async function* readFrames(input: Readable): AsyncGenerator<{ type: number; payload: Buffer }> {
  const gunzip = input.pipe(createGunzip());
  input.once("error", (error) => gunzip.destroy(error));
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of gunzip) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (length > MAX_FRAME) throw new BackupFormatError("not a Zapdesk backup, or a damaged one (a frame is too large)");
      if (pending.length < 5 + length) break;
      yield { type: pending[0], payload: pending.subarray(5, 5 + length) };
      pending = pending.subarray(5 + length);
    }
  }
  if (pending.length) throw new BackupFormatError("the backup ends in the middle of a frame: the file is cut short");
}
