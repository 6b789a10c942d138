/**
 * Business hours of a queue (issue 11 item 3): a weekly schedule in a time zone, plus holidays.
 *
 * Intervals are wall-clock times in the schedule's time zone, `from` inclusive and `to` exclusive;
 * `to` may be "24:00" (end of the day). An interval never crosses midnight: a night shift is
 * written as two intervals ("22:00"–"24:00" on one weekday, "00:00"–"06:00" on the next). A
 * weekday may have several intervals (a lunch break). A holiday closes its whole local date.
 * `null` means always open; a schedule without days is closed all week.
 */

export interface BusinessInterval {
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** "HH:mm", inclusive. */
  from: string;
  /** "HH:mm" (or "24:00"), exclusive; later than `from`. */
  to: string;
}

export interface BusinessSchedule {
  timezone: string;
  days: BusinessInterval[];
  outOfHoursMessage: string;
  holidays?: { date: string; name?: string }[];
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Minutes since midnight of "HH:mm" ("24:00" is 1440). */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

export interface LocalTime {
  /** "YYYY-MM-DD" in the time zone. */
  date: string;
  weekday: number;
  /** Minutes since local midnight. */
  minutes: number;
  /** The local wall clock as if it were UTC, in ms (for offset arithmetic). */
  wallMs: number;
}

/** The wall clock of `instant` in `timezone`. */
export function localTimeOf(instant: Date, timezone: string): LocalTime {
  const parts = formatterFor(timezone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const year = get("year");
  const month = get("month");
  const day = get("day");
  const hour = get("hour") % 24;
  const minute = get("minute");
  const second = get("second");
  const midnight = Date.UTC(year, month - 1, day);
  return {
    date: `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
    weekday: new Date(midnight).getUTCDay(),
    minutes: hour * 60 + minute,
    wallMs: midnight + (hour * 60 + minute) * MINUTE_MS + second * 1000 + (((instant.getTime() % 1000) + 1000) % 1000),
  };
}

/** The local date "YYYY-MM-DD" of `instant` in `timezone`. */
export function localDateOf(instant: Date, timezone: string): string {
  return localTimeOf(instant, timezone).date;
}

function offsetAt(ms: number, timezone: string): number {
  return localTimeOf(new Date(ms), timezone).wallMs - ms;
}

/**
 * The instant of a local wall-clock time (ms since the epoch, as UTC fields). A time skipped by a
 * DST change lands just after the change (00:30 on a day clocks jump 00:00→01:00 is 01:30); a
 * repeated time takes its earlier occurrence.
 */
export function instantOfWall(wallMs: number, timezone: string): number {
  // The same few boundaries (a day's opening and closing) come back ticket after ticket.
  const key = `${timezone}|${wallMs}`;
  const cached = wallCache.get(key);
  if (cached !== undefined) return cached;
  const instant = computeInstantOfWall(wallMs, timezone);
  if (wallCache.size >= WALL_CACHE_MAX) wallCache.clear();
  wallCache.set(key, instant);
  return instant;
}

const WALL_CACHE_MAX = 20_000;
const wallCache = new Map<string, number>();

function computeInstantOfWall(wallMs: number, timezone: string): number {
  const before = offsetAt(wallMs - DAY_MS, timezone);
  const after = offsetAt(wallMs + DAY_MS, timezone);
  const candidates = [wallMs - before, wallMs - after].filter((t) => t + offsetAt(t, timezone) === wallMs);
  if (candidates.length > 0) return Math.min(...candidates);
  // In a gap: move forward by the jump, with the offset in force before it.
  return wallMs - before;
}

function holidaySet(schedule: BusinessSchedule): Set<string> {
  return new Set((schedule.holidays ?? []).map((h) => h.date));
}

/** Whether the queue is open at `instant`. */
export function isOpenAt(schedule: BusinessSchedule | null | undefined, instant: Date): boolean {
  if (!schedule) return true;
  const local = localTimeOf(instant, schedule.timezone);
  if (holidaySet(schedule).has(local.date)) return false;
  return schedule.days.some(
    (d) => d.weekday === local.weekday && minutesOf(d.from) <= local.minutes && local.minutes < minutesOf(d.to),
  );
}

/**
 * Milliseconds of business time between `from` and `to` (0 when `to` is not later). Without a
 * schedule every millisecond counts. Walks the local days of the span, so it is bounded by the
 * span's length in days times the intervals of a day.
 */
export function businessMillisBetween(schedule: BusinessSchedule | null | undefined, from: Date, to: Date): number {
  const start = from.getTime();
  const end = to.getTime();
  if (!(end > start)) return 0;
  if (!schedule) return end - start;
  const { timezone } = schedule;
  const holidays = holidaySet(schedule);
  const byWeekday = new Map<number, BusinessInterval[]>();
  for (const d of schedule.days) byWeekday.set(d.weekday, [...(byWeekday.get(d.weekday) ?? []), d]);
  if (byWeekday.size === 0) return 0;

  const first = localTimeOf(from, timezone);
  const last = localTimeOf(to, timezone);
  let total = 0;
  const firstDay = Date.UTC(...ymd(first.date));
  const lastDay = Date.UTC(...ymd(last.date));
  for (let day = firstDay; day <= lastDay; day += DAY_MS) {
    const date = new Date(day).toISOString().slice(0, 10);
    if (holidays.has(date)) continue;
    for (const interval of byWeekday.get(new Date(day).getUTCDay()) ?? []) {
      const open = instantOfWall(day + minutesOf(interval.from) * MINUTE_MS, timezone);
      const close = instantOfWall(day + minutesOf(interval.to) * MINUTE_MS, timezone);
      const overlap = Math.min(close, end) - Math.max(open, start);
      if (overlap > 0) total += overlap;
    }
  }
  return total;
}

function ymd(date: string): [number, number, number] {
  const [y, m, d] = date.split("-").map(Number);
  return [y, m - 1, d];
}

/** Whether `value` is a time zone this runtime knows (an IANA name such as "America/Sao_Paulo"). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
