import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Writable } from "node:stream";
import type { Backup, BackupList, BackupSchedule } from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import { writeBackup } from "../../backup/backup.js";
import { backupFileName } from "../../backup/names.js";
import type { Database } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";
import type { MediaStorage } from "../../media/storage.js";
import { claimDay, getLastRun, getSchedule, setLastRun, setSchedule } from "./backups.repo.js";

const NAME = /^zapdesk-[0-9TZ-]{15,30}\.zdb$/;

export interface BackupServiceDeps {
  database: Database;
  storage: MediaStorage;
  mediaKind: "local" | "s3";
  /** The backup folder (DATA_DIR/backups). */
  dir: string;
  clock: Clock;
  logger: FastifyBaseLogger;
}

/** Backups made by the server itself: on demand, streamed for a download, or daily with retention. */
export function createBackupService(deps: BackupServiceDeps) {
  const { database, dir, clock, logger } = deps;
  const db = database.db;
  /** One backup at a time per process: each holds a snapshot open and reads every file. */
  let running = false;

  async function exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (running) throw new AppError("ERR_BACKUP_RUNNING");
    running = true;
    try {
      return await work();
    } finally {
      running = false;
    }
  }

  const write = (out: Writable) => writeBackup(out, { database, storage: deps.storage, mediaKind: deps.mediaKind });

  async function list(): Promise<Backup[]> {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => NAME.test(name));
    const backups = await Promise.all(
      names.map(async (name) => {
        const info = await stat(join(dir, name));
        return { name, size: info.size, createdAt: info.mtime.toISOString() };
      }),
    );
    return backups.sort((a, b) => b.name.localeCompare(a.name));
  }

  /** A backup into the folder; written under a temporary name, so a listed backup is always whole. */
  async function toFolder(): Promise<Backup> {
    await mkdir(dir, { recursive: true });
    const name = backupFileName(clock.now());
    const partial = join(dir, `${name}.partial`);
    try {
      await write(createWriteStream(partial));
      await rename(partial, join(dir, name));
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    const info = await stat(join(dir, name));
    return { name, size: info.size, createdAt: info.mtime.toISOString() };
  }

  async function prune(keep: number) {
    for (const old of (await list()).slice(keep)) await rm(join(dir, old.name), { force: true });
  }

  /** The day's scheduled backup, once across every process, after the scheduled hour. */
  async function runSchedule(): Promise<Backup | undefined> {
    const schedule = await getSchedule(db);
    const now = clock.now();
    if (!schedule.enabled || now.getHours() < schedule.hour || running) return undefined;
    const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
    if (!(await claimDay(db, day, now.toISOString()))) return undefined;
    try {
      const backup = await exclusive(toFolder);
      await prune(schedule.keep);
      await setLastRun(db, { day, at: now.toISOString(), ok: true, name: backup.name, error: null });
      logger.info({ backup: backup.name, size: backup.size }, "scheduled backup written");
      return backup;
    } catch (error) {
      logger.error({ err: error }, "scheduled backup failed");
      await setLastRun(db, {
        day,
        at: now.toISOString(),
        ok: false,
        name: null,
        error: String((error as Error).message ?? error),
      });
      return undefined;
    }
  }

  let timer: NodeJS.Timeout | undefined;
  return {
    get busy() {
      return running;
    },
    async overview(): Promise<BackupList> {
      return { backups: await list(), schedule: await getSchedule(db), lastRun: await getLastRun(db) };
    },
    async setSchedule(schedule: BackupSchedule): Promise<BackupSchedule> {
      await setSchedule(db, schedule);
      return schedule;
    },
    create: () => exclusive(toFolder),
    /** A fresh backup written straight to `out` (a download): nothing is kept on the server. */
    stream: (out: Writable) => exclusive(() => write(out)),
    async open(name: string) {
      if (!NAME.test(name)) throw new AppError("ERR_NO_BACKUP_FOUND");
      const info = await stat(join(dir, name)).catch(() => undefined);
      if (!info?.isFile()) throw new AppError("ERR_NO_BACKUP_FOUND");
      return { stream: createReadStream(join(dir, name)), size: info.size };
    },
    runSchedule,
    /** Looks every minute whether the day's backup is due. */
    start(everyMs = 60_000) {
      timer = setInterval(
        () => void runSchedule().catch((error) => logger.warn({ err: error }, "backup schedule check failed")),
        everyMs,
      );
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
