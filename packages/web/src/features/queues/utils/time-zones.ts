/** The IANA time zones this browser knows, UTC included, sorted. */
export function timeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: "timeZone") => string[] }).supportedValuesOf?.("timeZone") ?? [];
  return [...new Set(["UTC", ...supported, browserTimeZone()])].sort();
}

/** The browser's own time zone (the default of a new schedule). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}
