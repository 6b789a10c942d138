import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, normalize, posix, sep } from "node:path";
import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { pipeline } from "node:stream/promises";

export interface StoredFile {
  /** Key relative to the media root or bucket (random, never derived from user input). */
  path: string;
  size: number;
}

/** Anything that yields the bytes of a file: a Node stream, or what a web stream became. */
export type MediaSource = Readable | AsyncIterable<Uint8Array>;

/** Where media lives: the local folder (embedded default) or an S3-compatible bucket. */
export interface MediaStorage {
  save(data: Buffer, ext: string): Promise<StoredFile>;
  /**
   * Stream a file in without holding it in memory. Past `maxBytes` the source is destroyed, the
   * partial file removed, and a MediaTooLargeError thrown: nothing is left behind. `key` stores it
   * under that name instead of a new random one (a restore puts files back where rows name them).
   */
  saveStream(source: MediaSource, ext: string, options: { maxBytes: number; key?: string }): Promise<StoredFile>;
  /** The stored bytes and their size, or undefined when the file is not there. */
  open(relative: string): Promise<{ stream: Readable; size: number } | undefined>;
  remove(relative: string): Promise<void>;
  /** Fails with a clear message when the storage cannot be reached (checked at start-up). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** A stored file as a route serves it: its bytes, their size, and the type and name recorded with the message. */
export interface ServedFile {
  stream: Readable;
  size: number;
  mime: string;
  name: string;
}

export class MediaTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`media is over the limit of ${maxBytes} bytes`);
    this.name = "MediaTooLargeError";
  }
}

/** A random key under the current year and month, e.g. `2025/03/<32 hex>.jpg`. */
export function newMediaKey(ext: string, now = new Date()): string {
  const safeExt = /^[a-z0-9]{1,8}$/.test(ext) ? ext : "bin";
  return posix.join(
    String(now.getUTCFullYear()),
    String(now.getUTCMonth() + 1).padStart(2, "0"),
    `${randomBytes(16).toString("hex")}.${safeExt}`,
  );
}

/** A chunk of a stream as a Buffer (web streams yield plain Uint8Arrays). */
export const asBuffer = (chunk: Uint8Array): Buffer => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));

/**
 * The source's bytes, counted as they pass: past `maxBytes` it throws MediaTooLargeError, which
 * also stops (destroys) the source. `counted.size` is the total once the source has ended.
 */
export function capped(source: MediaSource, maxBytes: number): AsyncGenerator<Buffer> & { size: number } {
  const state = { size: 0 };
  async function* run(): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      const data = asBuffer(chunk);
      state.size += data.length;
      if (state.size > maxBytes) throw new MediaTooLargeError(maxBytes);
      yield data;
    }
  }
  return Object.defineProperty(run(), "size", { get: () => state.size }) as AsyncGenerator<Buffer> & { size: number };
}

/** The whole stored file in memory (the outbox hands media to the channel as bytes); throws when it is gone. */
export async function readStored(storage: Pick<MediaStorage, "open">, relative: string): Promise<Buffer> {
  const file = await storage.open(relative);
  if (!file) throw new Error(`media file ${relative} is missing from storage`);
  return buffer(file.stream);
}

/** Media on the local disk under DATA_DIR/media, with random names. */
export function createMediaStorage(root: string): MediaStorage {
  function resolveSafe(relative: string): string {
    const full = normalize(join(root, relative));
    if (!full.startsWith(normalize(root) + sep)) throw new Error("media path escapes the storage root");
    return full;
  }

  async function prepare(ext: string, key?: string) {
    const relative = key ?? newMediaKey(ext);
    const full = resolveSafe(relative);
    await mkdir(dirname(full), { recursive: true });
    return { relative, full };
  }

  return {
    async save(data, ext) {
      const { relative, full } = await prepare(ext);
      await writeFile(full, data, { mode: 0o640 });
      return { path: relative, size: data.length };
    },

    async saveStream(source, ext, { maxBytes, key }) {
      const { relative, full } = await prepare(ext, key);
      const counted = capped(source, maxBytes);
      // Opened before the copy starts: a stream that opens its file lazily can create it after a
      // failed copy has already removed it, leaving a partial file behind.
      const file = await open(full, "w", 0o640);
      try {
        await pipeline(counted, file.createWriteStream());
      } catch (error) {
        await file.close().catch(() => {});
        await rm(full, { force: true });
        throw error;
      }
      return { path: relative, size: counted.size };
    },

    async open(relative) {
      const full = resolveSafe(relative);
      try {
        const info = await stat(full);
        return { stream: createReadStream(full), size: info.size };
      } catch {
        return undefined;
      }
    },

    async remove(relative) {
      await rm(resolveSafe(relative), { force: true });
    },

    async check() {
      await mkdir(root, { recursive: true });
    },

    async close() {},
  };
}

/** A download name safe for any file system and header: no paths, no control or quote characters. */
export function safeFileName(name: string | undefined, fallbackExt: string): string {
  const base = (name ?? "")
    .split(/[\\/]/)
    .pop()!
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f"<>:|?*;]/g, "_")
    .trim()
    .slice(0, 120);
  return base && base !== "." && base !== ".." ? base : `file.${fallbackExt}`;
}
