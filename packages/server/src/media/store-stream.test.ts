import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMediaStorage, type MediaStorage, MediaTooLargeError, readStored } from "./storage.js";
import { storeStream } from "./store-stream.js";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6f2d20000000049454e44ae426082",
  "hex",
);

let root: string;
let storage: MediaStorage;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "zapdesk-store-stream-"));
  storage = createMediaStorage(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** The bytes as a stream of tiny chunks: the signature arrives split over several reads. */
const trickle = (data: Buffer, size = 3) =>
  Readable.from(Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size)));

const files = async () => (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());

describe("storeStream", () => {
  it("sniffs the type from the first bytes, whatever the sender claims, and stores every byte", async () => {
    const saved = await storeStream(storage, trickle(PNG), { filename: "../evil.exe", claimedMime: "text/html", maxBytes: 1024 });
    expect(saved).toMatchObject({ mime: "image/png", mediaType: "image", name: "evil.exe", size: PNG.length });
    expect(saved.path).toMatch(/\.png$/);
    expect(await readStored(storage, saved.path)).toEqual(PNG);
  });

  it("keeps the claimed type only where the bytes allow it (plain text), and names a nameless file", async () => {
    const text = Buffer.from("a,b\n1,2\n".repeat(2000));
    const saved = await storeStream(storage, trickle(text, 1000), { claimedMime: "text/csv", maxBytes: 1024 * 1024 });
    expect(saved).toMatchObject({ mime: "text/csv", name: "file.csv", size: text.length });
    expect(await readStored(storage, saved.path)).toEqual(text);
  });

  it("an empty download is stored as an empty opaque file", async () => {
    const saved = await storeStream(storage, Readable.from([]), { maxBytes: 10 });
    expect(saved).toMatchObject({ mime: "application/octet-stream", size: 0 });
  });

  it("over the cap, even within the sniffed head, throws MediaTooLargeError and keeps nothing", async () => {
    await expect(storeStream(storage, trickle(PNG), { maxBytes: PNG.length - 1 })).rejects.toBeInstanceOf(MediaTooLargeError);
    const big = Buffer.concat([PNG, Buffer.alloc(100_000)]);
    await expect(storeStream(storage, trickle(big, 8192), { maxBytes: 50_000 })).rejects.toBeInstanceOf(MediaTooLargeError);
    expect(await files()).toEqual([]);
  });

  it("a download that fails before or after the head fails the store and keeps nothing", async () => {
    const failing = (after: Buffer) =>
      Readable.from(
        (async function* () {
          yield after;
          throw new Error("410 gone");
        })(),
      );
    await expect(storeStream(storage, failing(PNG.subarray(0, 4)), { maxBytes: 1_000_000 })).rejects.toThrow("410 gone");
    await expect(storeStream(storage, failing(Buffer.alloc(10_000)), { maxBytes: 1_000_000 })).rejects.toThrow("410 gone");
    expect(await files()).toEqual([]);
  });
});
