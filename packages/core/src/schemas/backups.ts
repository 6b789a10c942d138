import { z } from "zod";

/** A daily backup: whether it runs, at which hour of the server's day, and how many are kept. */
export const backupScheduleSchema = z.strictObject({
  enabled: z.boolean(),
  /** The hour (0–23, server time) after which the day's backup is written. */
  hour: z.number().int().min(0).max(23),
  /** Backups kept in the backup folder; older ones are removed after each new one. */
  keep: z.number().int().min(1).max(90),
});
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;

export const DEFAULT_BACKUP_SCHEDULE: BackupSchedule = { enabled: false, hour: 3, keep: 7 };

/** A backup file in the backup folder. */
export const backupSchema = z.object({
  name: z.string(),
  size: z.number().int(),
  createdAt: z.string(),
});
export type Backup = z.infer<typeof backupSchema>;

/** The outcome of the last scheduled backup (any process). */
export const backupRunSchema = z.object({
  day: z.string(),
  at: z.string(),
  ok: z.boolean(),
  name: z.string().nullable(),
  error: z.string().nullable(),
});
export type BackupRun = z.infer<typeof backupRunSchema>;

export const backupListSchema = z.object({
  backups: z.array(backupSchema),
  schedule: backupScheduleSchema,
  lastRun: backupRunSchema.nullable(),
});
export type BackupList = z.infer<typeof backupListSchema>;

/** Names the server gives its backups: nothing else is served from the folder. */
export const backupNameParamsSchema = z.strictObject({
  name: z.string().regex(/^zapdesk-[0-9TZ-]{15,30}\.zdb$/, "Not a backup name"),
});
