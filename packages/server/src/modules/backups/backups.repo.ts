import {
  type BackupRun,
  type BackupSchedule,
  backupRunSchema,
  backupScheduleSchema,
  DEFAULT_BACKUP_SCHEDULE,
} from "@zapdesk/core";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";

// Kept in the settings table under keys of their own (not in the generic settings API).
const SCHEDULE_KEY = "backupSchedule";
const LAST_RUN_KEY = "backupLastRun";

async function read(db: Db, key: string): Promise<unknown> {
  const result = (await db.execute(sql`select value from settings where key = ${key}`)) as unknown as {
    rows: { value: string }[];
  };
  const value = result.rows[0]?.value;
  if (!value) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

async function write(db: Db, key: string, value: unknown): Promise<void> {
  await db.execute(
    sql`insert into settings (key, value) values (${key}, ${JSON.stringify(value)})
        on conflict (key) do update set value = excluded.value, updated_at = now()`,
  );
}

export async function getSchedule(db: Db): Promise<BackupSchedule> {
  const parsed = backupScheduleSchema.safeParse(await read(db, SCHEDULE_KEY));
  return parsed.success ? parsed.data : DEFAULT_BACKUP_SCHEDULE;
}

export const setSchedule = (db: Db, schedule: BackupSchedule) => write(db, SCHEDULE_KEY, schedule);

export async function getLastRun(db: Db): Promise<BackupRun | null> {
  const parsed = backupRunSchema.safeParse(await read(db, LAST_RUN_KEY));
  return parsed.success ? parsed.data : null;
}

export const setLastRun = (db: Db, run: BackupRun) => write(db, LAST_RUN_KEY, run);

/**
 * Claims `day`'s scheduled backup for this process: true for exactly one of several processes
 * asking at once (the row changes only if it does not already name that day).
 */
export async function claimDay(db: Db, day: string, at: string): Promise<boolean> {
  const claim = JSON.stringify({ day, at, ok: false, name: null, error: "running" } satisfies BackupRun);
  const result = (await db.execute(
    sql`insert into settings (key, value) values (${LAST_RUN_KEY}, ${claim})
        on conflict (key) do update set value = excluded.value, updated_at = now()
        where (settings.value::jsonb ->> 'day') is distinct from ${day}
        returning key`,
  )) as unknown as { rows: unknown[] };
  return result.rows.length === 1;
}
