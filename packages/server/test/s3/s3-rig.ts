import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3StorageOptions } from "../../src/media/s3-storage.js";

/**
 * A real S3-protocol server (s3rver: the S3 REST API over a folder; it checks the access key id,
 * not SigV4 signatures), run by the test itself on a free port. Each `bucket()` is a fresh, empty bucket.
 */
export async function startS3rver() {
  const directory = await mkdtemp(join(tmpdir(), "zapdesk-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's built-in account: any other access key id is refused.
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const admin = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials });

  return {
    endpoint,
    credentials,

    /** A new bucket and the storage options that reach it (as MEDIA_STORAGE=s3 with S3_ENDPOINT would). */
    async bucket(): Promise<S3StorageOptions> {
      const bucket = `zapdesk-${randomBytes(6).toString("hex")}`;
      await admin.send(new CreateBucketCommand({ Bucket: bucket }));
      return { bucket, endpoint, region: "us-east-1", forcePathStyle: true, credentials };
    },

    /** Every object key in a bucket. */
    async keys(bucket: string): Promise<string[]> {
      const listed = await admin.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key ?? "");
    },

    async close() {
      admin.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export type S3rverRig = Awaited<ReturnType<typeof startS3rver>>;
