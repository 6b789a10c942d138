import { z } from "zod";
import { isTimeZone } from "../business-hours.js";
import { idParam } from "./common.js";

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const dateParam = z
  .string()
  .regex(DAY, "Expected yyyy-MM-dd")
  .refine((value) => new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), "Invalid date");

/** The longest period the metrics cover at once, in days (a year, leap day included). */
export const METRICS_MAX_DAYS = 366;

const dayNumber = (value: string) => Date.parse(`${value}T00:00:00Z`) / 86_400_000;

/**
 * GET /api/dashboard/metrics (issue 13): tickets created from `from` to `to` (inclusive, the
 * viewer's time zone; default the current month up to today), optionally one queue and one agent.
 */
export const metricsQuerySchema = z
  .strictObject({
    from: dateParam.optional(),
    to: dateParam.optional(),
    tz: z.string().max(64).refine(isTimeZone, "Unknown time zone").default("UTC"),
    queueId: idParam.optional(),
    userId: idParam.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from is after to", path: ["from"] })
  .refine((q) => !q.from || !q.to || dayNumber(q.to) - dayNumber(q.from) < METRICS_MAX_DAYS, {
    message: `The period is longer than ${METRICS_MAX_DAYS} days`,
    path: ["to"],
  });
export type MetricsQuery = z.output<typeof metricsQuerySchema>;

/** Median and 90th percentile (continuous, as PostgreSQL's percentile_cont) of a duration, in ms; null without any. */
export const durationStatsSchema = z.object({ median: z.number().nullable(), p90: z.number().nullable(), count: z.number() });
export type DurationStats = z.infer<typeof durationStatsSchema>;

export const metricFiguresSchema = z.object({
  /** Ticket created → first agent reply (not automatic, not a private note). */
  firstResponse: durationStatsSchema,
  /** Ticket created → closed. */
  resolution: durationStatsSchema,
  /** Ticket created → first reply or acceptance, in the queue's business time when it has a schedule. */
  waiting: durationStatsSchema,
  /** Tickets created in the period (in this group). */
  tickets: z.number(),
});
export type MetricFigures = z.infer<typeof metricFiguresSchema>;

export const metricsSchema = z.object({
  from: z.string(),
  to: z.string(),
  tz: z.string(),
  overall: metricFiguresSchema,
  /** Every day of the period, "yyyy-MM-dd", empty days included. */
  byDay: z.array(metricFiguresSchema.extend({ day: z.string() })),
  byQueue: z.array(metricFiguresSchema.extend({ queueId: z.number().nullable(), name: z.string().nullable() })),
  byUser: z.array(metricFiguresSchema.extend({ userId: z.number().nullable(), name: z.string().nullable() })),
  /** What the filters may offer this viewer: admins every queue and agent, agents their queues and themselves. */
  options: z.object({
    queues: z.array(z.object({ id: z.number(), name: z.string() })),
    users: z.array(z.object({ id: z.number(), name: z.string() })),
  }),
});
export type Metrics = z.infer<typeof metricsSchema>;
