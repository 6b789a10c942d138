/** Reading old values: the loose types both source dialects return, made ours. */

/** Text as PostgreSQL takes it: a NUL character (which MySQL stores and WhatsApp messages sometimes carry) is dropped. */
export const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v).replaceAll("\u0000", ""));
export const bool = (v: unknown): boolean => v === true || v === 1 || v === "1" || v === "t" || v === "true";
export const int = (v: unknown): number | null => (v === null || v === undefined || v === "" ? null : Number(v));
export const digits = (v: string) => v.replace(/\D/g, "");

export const date = (v: unknown): Date | null => {
  if (v === null || v === undefined) return null;
  const d = v instanceof Date ? v : new Date(String(v));
  return Number.isNaN(d.getTime()) ? null : d;
};

/** Ticketz/SaaS `dataJson.messageTimestamp` (seconds; a number, a string or a protobuf Long). */
export function originalTimestamp(dataJson: unknown): Date | null {
  if (typeof dataJson !== "string" || !dataJson) return null;
  try {
    const parsed = JSON.parse(dataJson) as { messageTimestamp?: unknown };
    let ts = parsed.messageTimestamp;
    if (ts && typeof ts === "object" && "low" in ts) {
      const long = ts as { low: number; high?: number };
      ts = (long.high ?? 0) * 2 ** 32 + (long.low >>> 0);
    }
    const seconds = Number(ts);
    if (!Number.isFinite(seconds) || seconds <= 0) return null;
    return new Date(seconds * 1000);
  } catch {
    return null;
  }
}

export const MEDIA_TYPE: Record<string, string> = {
  chat: "chat",
  conversation: "chat",
  extendedTextMessage: "chat",
  image: "image",
  audio: "audio",
  ptt: "audio",
  video: "video",
  document: "document",
  application: "document",
  location: "location",
  vcard: "vcard",
  contactMessage: "vcard",
  sticker: "sticker",
  call_log: "call",
};

export function normaliseColor(color: unknown): string | null {
  const c = str(color).trim().toLowerCase();
  return /^#([0-9a-f]{3}|[0-9a-f]{6})$/.test(c) ? c : null;
}

export function freeColor(taken: Set<string>, seed: number): string {
  for (let i = 0; i < 4096; i++) {
    const hue = (seed * 47 + i * 137) % 360;
    const c = hslToHex(hue, 55, 45 + (i % 3) * 8);
    if (!taken.has(c)) return c;
  }
  return "#777777";
}

function hslToHex(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(Math.min(k - 3, 9 - k, 1), -1);
    return Math.round(255 * c)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}
