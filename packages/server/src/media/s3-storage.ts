import { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { capped, type MediaStorage, MediaTooLargeError, newMediaKey } from "./storage.js";

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** MinIO, Cloudflare R2 or any S3-compatible service; absent for AWS S3 itself. */
  endpoint?: string;
  /** Absent: the SDK's default chain (AWS_* variables, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO and most self-hosted services). */
  forcePathStyle: boolean;
}

/** S3's minimum part size; with two parts in flight a streamed upload holds at most ~15 MB in memory. */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Media in an S3-compatible bucket, so that every process of a scaled-out install serves every
 * file. The SDK is loaded on first use: the embedded default never pays for it.
 */
export function createS3Storage(options: S3StorageOptions): MediaStorage {
  const Bucket = options.bucket;
  let loaded: Promise<{ sdk: typeof import("@aws-sdk/client-s3"); client: S3Client }> | undefined;
  const load = () => {
    loaded ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle,
        credentials: options.credentials,
        // Checksums only where S3 requires them: R2, MinIO and other compatible services differ in
        // which of the newer checksum headers and trailers they accept.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    }));
    return loaded;
  };

  async function removeKey(Key: string) {
    const { sdk, client } = await load();
    await client.send(new sdk.DeleteObjectCommand({ Bucket, Key }));
  }

  return {
    async save(data, ext) {
      const { sdk, client } = await load();
      const Key = newMediaKey(ext);
      await client.send(new sdk.PutObjectCommand({ Bucket, Key, Body: data, ContentLength: data.length }));
      return { path: Key, size: data.length };
    },

    async saveStream(source, ext, { maxBytes, key }) {
      const { client } = await load();
      const { Upload } = await import("@aws-sdk/lib-storage");
      const Key = key ?? newMediaKey(ext);
      const counted = capped(source, maxBytes);
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: Readable.from(counted) },
        partSize: PART_SIZE,
        queueSize: PARTS_IN_FLIGHT,
      });
      try {
        await upload.done();
      } catch (error) {
        // The multipart upload is aborted by lib-storage; a finished single put is removed here.
        await removeKey(Key).catch(() => {});
        throw counted.size > maxBytes ? new MediaTooLargeError(maxBytes) : error;
      }
      return { path: Key, size: counted.size };
    },

    async open(Key) {
      const { sdk, client } = await load();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key }));
        if (!(object.Body instanceof Readable)) throw new Error("the S3 client returned a body that is not a Node stream");
        return { stream: object.Body, size: object.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async remove(Key) {
      await removeKey(Key).catch((error) => {
        if (!isMissing(error)) throw error;
      });
    },

    async check() {
      const { sdk, client } = await load();
      try {
        await client.send(new sdk.HeadBucketCommand({ Bucket }));
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        throw new Error(
          `S3 bucket "${Bucket}" is not reachable${options.endpoint ? ` at ${options.endpoint}` : ""}` +
            ` (${status ? `HTTP ${status}` : String((error as Error).message ?? error)}): check S3_BUCKET, S3_ENDPOINT, S3_REGION and the keys`,
        );
      }
    },

    async close() {
      if (loaded) (await loaded).client.destroy();
    },
  };
}
