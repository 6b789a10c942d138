import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.js";
import { type Database, openDatabase } from "../db/client.js";
import { createS3Storage } from "../media/s3-storage.js";
import { createMediaStorage, type MediaStorage } from "../media/storage.js";

export class MaintenanceError extends Error {}

/** The install's media, as the server itself opens it. */
export function openMediaStorage(config: Config): MediaStorage {
  return config.mediaStorage?.kind === "s3"
    ? createS3Storage(config.mediaStorage)
    : createMediaStorage(join(config.dataDir, "media"));
}

/** Whether a Zapdesk server answers on this install's port. */
async function serverAnswers(config: Config): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${config.port}/api/health`, { signal: AbortSignal.timeout(1500) });
    return res.status < 500 || res.status === 503;
  } catch {
    return false;
  }
}

/**
 * The install's database for a command run beside the server (`npm run backup`, `npm run
 * restore`). A PostgreSQL server (DATABASE_URL) takes any number of clients. The embedded
 * database is opened through db/client like the server does; PGlite (a folder that one process
 * may open at a time, with no lock of its own) is refused while a server answers on PORT.
 */
export async function openForMaintenance(config: Config): Promise<Database> {
  if (config.databaseUrl) return openDatabase({ url: config.databaseUrl, poolSize: 2 });
  const pglite = existsSync(join(config.dataDir, "pgdata", "PG_VERSION"));
  if (pglite && (await serverAnswers(config))) {
    throw new MaintenanceError(
      `A Zapdesk server is running on ${config.dataDir} (port ${config.port}). Its embedded database can be opened by` +
        " one process only: download a backup from Settings → Backups instead, or stop the server first.",
    );
  }
  return openDatabase({ dataDir: config.dataDir });
}
