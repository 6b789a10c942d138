/**
 * PostgreSQL stores no NUL character, in text or in jsonb strings. What a customer or a provider
 * sends is stored anyway, with each NUL replaced by U+FFFD (the replacement character).
 */
export function withoutNul<T>(value: T): T {
  if (typeof value === "string") return (value.includes("\u0000") ? value.replaceAll("\u0000", "\ufffd") : value) as T;
  if (Array.isArray(value)) return value.map((item) => withoutNul(item)) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[withoutNul(key)] = withoutNul(item);
    return out as T;
  }
  return value;
}
