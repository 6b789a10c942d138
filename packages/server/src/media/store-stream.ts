import type { MediaType } from "@zapdesk/core";
import { mediaTypeOf, sniff } from "./sniff.js";
import { asBuffer, type MediaSource, type MediaStorage, safeFileName } from "./storage.js";

/** Enough of a file's start for every signature and the plain-text check of `sniff`. */
const SNIFF_BYTES = 4096;

export interface StreamedMedia {
  path: string;
  name: string;
  mime: string;
  mediaType: MediaType;
  size: number;
}

/**
 * Save a downloaded file without holding it in memory: its type is sniffed from the first bytes
 * (never the sender's claim), then the whole stream goes to storage under the size cap. Over the
 * cap, storage throws MediaTooLargeError and keeps nothing.
 */
export async function storeStream(
  storage: MediaStorage,
  source: MediaSource,
  options: { filename?: string; claimedMime?: string; maxBytes: number },
): Promise<StreamedMedia> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  try {
    // Never read past the cap for the head either: storage refuses it as soon as it sees it.
    while (headBytes < SNIFF_BYTES && headBytes <= options.maxBytes) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      const chunk = asBuffer(next.value);
      head.push(chunk);
      headBytes += chunk.length;
    }
  } catch (error) {
    await iterator.return?.();
    throw error;
  }
  const type = sniff(Buffer.concat(head), options.claimedMime);
  async function* whole(): AsyncGenerator<Buffer> {
    try {
      yield* head;
      while (!ended) {
        const next = await iterator.next();
        if (next.done) return;
        yield asBuffer(next.value);
      }
    } finally {
      // Stopped early (over the cap, storage failed): stop the download too.
      await iterator.return?.();
    }
  }
  let saved: Awaited<ReturnType<MediaStorage["saveStream"]>>;
  try {
    saved = await storage.saveStream(whole(), type.ext, { maxBytes: options.maxBytes });
  } catch (error) {
    // Storage may fail before it pulls a byte (bucket unreachable): the download must stop all the same.
    await iterator.return?.();
    throw error;
  }
  return {
    path: saved.path,
    name: safeFileName(options.filename, type.ext),
    mime: type.mime,
    mediaType: mediaTypeOf(type.mime),
    size: saved.size,
  };
}
