const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** "3 minutes ago" in the screen's language; under ten seconds is "now". */
export function formatRelative(iso: string, language: string, now = Date.now()): string {
  const diff = new Date(iso).getTime() - now;
  const format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  if (Math.abs(diff) < 10_000) return format.format(0, "second");
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === "second") return format.format(Math.round(diff / ms), unit);
  }
  return format.format(0, "second");
}
