import type { BusinessHours, BusinessSchedule } from "@zapdesk/core";

/** A stored schedule as the API shows it (holidays always present). */
export function presentSchedule(stored: BusinessSchedule | null): BusinessHours | null {
  if (!stored) return null;
  return {
    timezone: stored.timezone,
    days: stored.days.map((d) => ({ weekday: d.weekday, from: d.from, to: d.to })),
    outOfHoursMessage: stored.outOfHoursMessage ?? "",
    holidays: (stored.holidays ?? []).map((h) => (h.name ? { date: h.date, name: h.name } : { date: h.date })),
  };
}
