import { randomBytes } from "node:crypto";
import { createReadStream, type ReadStream } from "node:fs";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, normalize, sep } from "node:path";

export interface StoredFile {
  /** Path relative to the media root (random, never derived from user input). */
  path: string;
  size: number;
}

/** Media on the local disk under DATA_DIR/media, with random names. */
export function createMediaStorage(root: string) {
  function resolveSafe(relative: string): string {
    const full = normalize(join(root, relative));
    if (!full.startsWith(normalize(root) + sep)) throw new Error("media path escapes the storage root");
    return full;
  }

  return {
    async save(data: Buffer, ext: string): Promise<StoredFile> {
      const now = new Date();
      const safeExt = /^[a-z0-9]{1,8}$/.test(ext) ? ext : "bin";
      const relative = join(
        String(now.getUTCFullYear()),
        String(now.getUTCMonth() + 1).padStart(2, "0"),
        `${randomBytes(16).toString("hex")}.${safeExt}`,
      );
      const full = resolveSafe(relative);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, data, { mode: 0o640 });
      return { path: relative, size: data.length };
    },

    async open(relative: string): Promise<{ stream: ReadStream; size: number } | undefined> {
      const full = resolveSafe(relative);
      try {
        const info = await stat(full);
        return { stream: createReadStream(full), size: info.size };
      } catch {
        return undefined;
      }
    },

    async remove(relative: string): Promise<void> {
      await rm(resolveSafe(relative), { force: true });
    },
  };
}

export type MediaStorage = ReturnType<typeof createMediaStorage>;

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
