import { z } from "zod";
import { isTimeZone, minutesOf } from "../business-hours.js";
import { MSG } from "./common.js";

/** The validation messages of a schedule (the web translates them). */
export const SCHEDULE_MSG = {
  time: "Expected HH:mm",
  endAfterStart: "Must be later than the start",
  overlap: "Overlaps another interval",
  timezone: "Unknown time zone",
  date: "Expected a date YYYY-MM-DD",
  repeatedDate: "Repeated date",
} as const;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const HHMM_OR_END = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A real calendar date "YYYY-MM-DD" (no 2025-02-30). */
function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const businessIntervalSchema = z.strictObject({
  weekday: z.number({ error: MSG.invalidNumber }).int().min(0).max(6),
  from: z.string().regex(HHMM, SCHEDULE_MSG.time),
  to: z.string().regex(HHMM_OR_END, SCHEDULE_MSG.time),
});

export const holidaySchema = z.strictObject({
  date: z.string().refine(isCalendarDate, SCHEDULE_MSG.date),
  name: z.string().trim().max(100, MSG.tooLong).optional(),
});

/**
 * A queue's business hours: wall-clock intervals per weekday in `timezone` (IANA), `to` later
 * than `from` ("24:00" ends the day; no interval crosses midnight), several per weekday allowed
 * but not overlapping; holidays close their whole local date.
 */
export const businessHoursSchema = z
  .strictObject({
    timezone: z.string().trim().refine(isTimeZone, SCHEDULE_MSG.timezone),
    days: z.array(businessIntervalSchema).max(70),
    outOfHoursMessage: z.string().max(30000, MSG.tooLong).default(""),
    holidays: z.array(holidaySchema).max(400).default([]),
  })
  .superRefine((value, ctx) => {
    value.days.forEach((interval, index) => {
      if (HHMM.test(interval.from) && HHMM_OR_END.test(interval.to) && minutesOf(interval.to) <= minutesOf(interval.from)) {
        ctx.addIssue({ code: "custom", path: ["days", index, "to"], message: SCHEDULE_MSG.endAfterStart });
      }
    });
    const sorted = value.days
      .map((d, index) => ({ ...d, index }))
      .filter((d) => HHMM.test(d.from) && HHMM_OR_END.test(d.to))
      .sort((a, b) => a.weekday - b.weekday || minutesOf(a.from) - minutesOf(b.from));
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1];
      const cur = sorted[i];
      if (prev.weekday === cur.weekday && minutesOf(cur.from) < minutesOf(prev.to)) {
        ctx.addIssue({ code: "custom", path: ["days", cur.index, "from"], message: SCHEDULE_MSG.overlap });
      }
    }
    const seen = new Set<string>();
    value.holidays.forEach((holiday, index) => {
      if (seen.has(holiday.date))
        ctx.addIssue({ code: "custom", path: ["holidays", index, "date"], message: SCHEDULE_MSG.repeatedDate });
      seen.add(holiday.date);
    });
  });
export type BusinessHoursInput = z.input<typeof businessHoursSchema>;

export const businessHoursOutputSchema = z.object({
  timezone: z.string(),
  days: z.array(z.object({ weekday: z.number(), from: z.string(), to: z.string() })),
  outOfHoursMessage: z.string(),
  holidays: z.array(z.object({ date: z.string(), name: z.string().optional() })),
});
export type BusinessHours = z.infer<typeof businessHoursOutputSchema>;
