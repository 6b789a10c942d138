import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** Meta's `X-Hub-Signature-256` value for a body: "sha256=" and the hex HMAC-SHA256 with the app secret. */
export function hubSignature(raw: Buffer, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
}

/**
 * Constant-time comparison of two secrets of any length: both are hashed first, so neither the
 * content nor the length of the expected value shows in the timing.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
