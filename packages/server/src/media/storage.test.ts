import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3rverRig, startS3rver } from "../../test/s3/s3-rig.js";
import { createS3Storage } from "./s3-storage.js";
import { createMediaStorage, type MediaStorage, MediaTooLargeError, readStored } from "./storage.js";

/** One backend under test: how to make it, and what it holds right now (to prove nothing was left). */
interface Backend {
  storage: MediaStorage;
  stored(): Promise<string[]>;
  close(): Promise<void>;
}

let s3: S3rverRig;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3?.close());

const backends: Record<string, () => Promise<Backend>> = {
  local: async () => {
    const root = await mkdtemp(join(tmpdir(), "zapdesk-media-"));
    return {
      storage: createMediaStorage(root),
      stored: async () =>
        (await readdir(root, { recursive: true, withFileTypes: true }))
          .filter((entry) => entry.isFile())
          .map((entry) => entry.name),
      close: () => rm(root, { recursive: true, force: true }),
    };
  },
  s3: async () => {
    const options = await s3.bucket();
    const storage = createS3Storage(options);
    return { storage, stored: () => s3.keys(options.bucket), close: () => storage.close() };
  },
};

/** A source that yields `total` bytes in chunks and records whether it was read to the end or stopped. */
function source(data: Buffer, chunk = 64 * 1024) {
  const state = { pulled: 0, destroyed: false };
  const stream = new Readable({
    read() {
      if (state.pulled >= data.length) return void this.push(null);
      this.push(data.subarray(state.pulled, state.pulled + chunk));
      state.pulled += chunk;
    },
    destroy(error, callback) {
      state.destroyed = true;
      callback(error);
    },
  });
  return { stream, state };
}

describe.each(Object.keys(backends))("media storage contract: %s", (kind) => {
  let backend: Backend;
  let storage: MediaStorage;
  beforeAll(async () => {
    backend = await backends[kind]();
    storage = backend.storage;
    await storage.check();
  });
  afterAll(() => backend?.close());

  it("saves a buffer under a random dated key with a safe extension, opens it with its size, removes it", async () => {
    const data = randomBytes(1000);
    const saved = await storage.save(data, "png");
    expect(saved).toEqual({ path: expect.stringMatching(/^\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/), size: 1000 });
    const opened = await storage.open(saved.path);
    expect(opened?.size).toBe(1000);
    expect(await readStored(storage, saved.path)).toEqual(data);
    opened?.stream.destroy();

    expect((await storage.save(Buffer.from("x"), "../../etc")).path).toMatch(/\.bin$/);
    await storage.remove(saved.path);
    expect(await storage.open(saved.path)).toBeUndefined();
    await expect(readStored(storage, saved.path)).rejects.toThrow(/missing/);
    // Removing what is already gone is not an error (a failed send cleans up after itself).
    await storage.remove(saved.path);
  });

  it("streams a file in without knowing its size, across several upload parts", async () => {
    // Over S3's 5 MB minimum part: a real multipart upload.
    const data = randomBytes(11 * 1024 * 1024 + 123);
    const saved = await storage.saveStream(source(data).stream, "mp4", { maxBytes: 16 * 1024 * 1024 });
    expect(saved.size).toBe(data.length);
    expect((await storage.open(saved.path))?.size).toBe(data.length);
    expect((await readStored(storage, saved.path)).equals(data)).toBe(true);
    await storage.remove(saved.path);
  });

  it("over the cap: aborts, stops reading the source, and leaves nothing behind", async () => {
    const before = await backend.stored();
    for (const [size, cap] of [
      [300 * 1024, 100 * 1024], // within one part: a single put never made
      [14 * 1024 * 1024, 7 * 1024 * 1024], // a multipart upload already under way: aborted
    ]) {
      const { stream, state } = source(randomBytes(size));
      await expect(storage.saveStream(stream, "jpg", { maxBytes: cap })).rejects.toBeInstanceOf(MediaTooLargeError);
      expect(state.destroyed).toBe(true);
      expect(state.pulled).toBeLessThan(size);
    }
    // Exactly at the cap is still allowed.
    const exact = await storage.saveStream(source(randomBytes(4096)).stream, "bin", { maxBytes: 4096 });
    expect(exact.size).toBe(4096);
    await storage.remove(exact.path);
    expect(await backend.stored()).toEqual(before);
  });

  it("a source that fails half-way fails the save with its error and leaves nothing behind", async () => {
    const before = await backend.stored();
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(64 * 1024);
        throw new Error("connection reset by the provider");
      })(),
    );
    await expect(storage.saveStream(failing, "pdf", { maxBytes: 1024 * 1024 })).rejects.toThrow(/connection reset/);
    expect(await backend.stored()).toEqual(before);
  });

  it("opens a key that does not exist as undefined", async () => {
    expect(await storage.open("2020/01/00000000000000000000000000000000.png")).toBeUndefined();
  });
});

describe("media storage configuration errors", () => {
  it("local: a key that escapes the media folder is refused", async () => {
    const root = await mkdtemp(join(tmpdir(), "zapdesk-media-"));
    const storage = createMediaStorage(root);
    await expect(storage.open("../../etc/passwd")).rejects.toThrow(/escapes/);
    await expect(storage.remove("../outside")).rejects.toThrow(/escapes/);
    await rm(root, { recursive: true, force: true });
  });

  it("s3: a bucket that does not exist or keys that are wrong stop start-up with a message naming the bucket", async () => {
    const options = await s3.bucket();
    const missing = createS3Storage({ ...options, bucket: "zapdesk-no-such-bucket" });
    await expect(missing.check()).rejects.toThrow(
      /S3 bucket "zapdesk-no-such-bucket" is not reachable at http:\/\/127\.0\.0\.1:\d+ \(HTTP 404\)/,
    );
    await missing.close();
    const wrongKeys = createS3Storage({ ...options, credentials: { accessKeyId: "nobody", secretAccessKey: "wrong" } });
    await expect(wrongKeys.check()).rejects.toThrow(/HTTP 403\): check S3_BUCKET, S3_ENDPOINT, S3_REGION and the keys/);
    await expect(wrongKeys.save(Buffer.from("x"), "txt")).rejects.toThrow(/Access Key Id/);
    await wrongKeys.close();
  });
});
