import { join } from "node:path";
import type { Config } from "../config.js";
import { type Database, embeddedConnection, openDatabase } from "../db/client.js";
import { DataDirInUseError } from "../db/embedded/embedded-postgres.js";
import { createS3Storage } from "../media/s3-storage.js";
import { createMediaStorage, type MediaStorage } from "../media/storage.js";

export class MaintenanceError extends Error {}

/** The install's media, as the server itself opens it. */
export function openMediaStorage(config: Config): MediaStorage {
  return config.mediaStorage?.kind === "s3"
    ? createS3Storage(config.mediaStorage)
    : createMediaStorage(join(config.dataDir, "media"));
}

/**
 * The install's database for a command run beside the server (`npm run backup`, `npm run
 * restore`). A PostgreSQL server (DATABASE_URL) takes any number of clients, and so does the
 * embedded one: while a Zapdesk holds the DATA_DIR the command joins its server over the socket;
 * when none runs, the command starts the embedded server for its own length (close() stops it).
 */
export async function openForMaintenance(config: Config): Promise<Database> {
  if (config.databaseUrl) return openDatabase({ url: config.databaseUrl, poolSize: 2 });
  try {
    return await openDatabase({ dataDir: config.dataDir, poolSize: 2, embedded: { memoryBytes: config.embeddedMemoryBytes } });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
  }
  try {
    return await openDatabase({ url: embeddedConnection(config.dataDir).url, poolSize: 2 });
  } catch (error) {
    throw new MaintenanceError(
      `The Zapdesk running on ${config.dataDir} holds its database, and it could not be reached: ${(error as Error).message}`,
    );
  }
}
