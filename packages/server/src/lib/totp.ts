import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Issue 22 §5: time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) with node:crypto only:
 * HMAC-SHA1, a 30-second step, six digits, and one step either side accepted for clock drift.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted before and after the current one. */
export const TOTP_WINDOW = 1;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding (what authenticator apps expect in the otpauth URI). */
export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 160 bits, as RFC 4226 recommends for HMAC-SHA1, in base32. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

/** RFC 4226: the code of one counter value. */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, "0");
}

/** The time step of an instant. */
export const totpStep = (at: Date) => Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);

/** RFC 6238: the code at an instant, for a base32 secret (or raw key bytes). */
export function totp(secret: string | Buffer, at: Date, digits = TOTP_DIGITS): string {
  return hotp(typeof secret === "string" ? base32Decode(secret) : secret, totpStep(at), digits);
}

/**
 * The step whose code this is, within the window around `at`, or null. Only steps after
 * `afterStep` count: a code accepted once (or an older one) is refused, which stops a replay.
 */
export function matchTotp(secret: string, code: string, at: Date, afterStep: number | null = null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secret);
  const current = totpStep(at);
  const given = Buffer.from(code);
  let found: number | null = null;
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    // Every step is compared (no early exit), each in constant time.
    if (timingSafeEqual(Buffer.from(hotp(key, step)), given) && found === null) found = step;
  }
  if (found === null || (afterStep !== null && found <= afterStep)) return null;
  return found;
}

/** What the authenticator app scans: `otpauth://totp/Issuer:account?secret=…&issuer=…`. */
export function otpauthUri(options: { secret: string; account: string; issuer: string }): string {
  const label = `${encodeURIComponent(options.issuer)}:${encodeURIComponent(options.account)}`;
  const params = new URLSearchParams({
    secret: options.secret,
    issuer: options.issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
