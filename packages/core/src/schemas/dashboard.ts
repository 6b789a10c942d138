import { z } from "zod";

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const dashboardQuerySchema = z.strictObject({
  /** The month of the per-day chart, "yyyy-MM"; defaults to the current month. */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Expected yyyy-MM")
    .optional(),
  /** The viewer's time zone, so "today" and hours are theirs. */
  tz: z.string().max(64).refine(isTimeZone, "Unknown time zone").default("UTC"),
});
export type DashboardQuery = z.output<typeof dashboardQuerySchema>;

const bucket = z.object({ key: z.number(), count: z.number() });

export const dashboardSchema = z.object({
  counts: z.object({ open: z.number(), pending: z.number(), closed: z.number() }),
  /** Tickets created today per hour, 08:00 to 19:00. */
  today: z.array(bucket),
  /** Tickets created per day of the chosen month. */
  month: z.array(bucket),
  /** Closed tickets per month (1–12) of the current year. */
  closedByMonth: z.array(bucket),
  closedByUser: z.array(z.object({ userId: z.number(), name: z.string(), count: z.number() })),
  /** Business hours (issue 11): first-answer wait of the month's tickets, in their queues' business time. */
  waiting: z.object({ answered: z.number(), averageMs: z.number().nullable(), unanswered: z.number() }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const DASHBOARD_HOURS = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19] as const;
