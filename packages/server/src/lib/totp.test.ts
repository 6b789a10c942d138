import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totp, totpStep } from "./totp.js";

describe("TOTP (RFC 6238, SHA-1)", () => {
  // RFC 6238 Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890", eight digits.
  const seed = Buffer.from("12345678901234567890", "ascii");
  const vectors: [number, string][] = [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ];

  it("matches the RFC's test vectors", () => {
    for (const [seconds, code] of vectors) expect(totp(seed, new Date(seconds * 1000), 8), String(seconds)).toBe(code);
  });

  it("gives the same codes from the base32 form of the seed, six digits by default", () => {
    const secret = base32Encode(seed);
    expect(secret).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    for (const [seconds, code] of vectors) expect(totp(secret, new Date(seconds * 1000)), String(seconds)).toBe(code.slice(-6));
  });

  it("matches RFC 4226's HOTP values (the counter underneath)", () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
    for (const [counter, code] of expected.entries()) expect(hotp(seed, counter)).toBe(code);
  });

  it("round-trips base32 and makes 160-bit secrets", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
    expect(() => base32Decode("not base32!")).toThrow();
  });

  it("accepts one step either side and no further", () => {
    const secret = newTotpSecret();
    const now = new Date(1_800_000_000_000);
    const at = (offsetSeconds: number) => totp(secret, new Date(now.getTime() + offsetSeconds * 1000));
    expect(matchTotp(secret, at(0), now)).toBe(totpStep(now));
    expect(matchTotp(secret, at(-30), now)).toBe(totpStep(now) - 1);
    expect(matchTotp(secret, at(30), now)).toBe(totpStep(now) + 1);
    expect(matchTotp(secret, at(-60), now)).toBeNull();
    expect(matchTotp(secret, at(60), now)).toBeNull();
    expect(matchTotp(secret, "12345", now)).toBeNull();
    expect(matchTotp(secret, "abcdef", now)).toBeNull();
  });

  it("refuses a code whose step was already used, or an older one", () => {
    const secret = newTotpSecret();
    const now = new Date(1_800_000_000_000);
    const step = totpStep(now);
    const code = totp(secret, now);
    expect(matchTotp(secret, code, now, step - 1)).toBe(step);
    expect(matchTotp(secret, code, now, step)).toBeNull();
    expect(matchTotp(secret, totp(secret, new Date(now.getTime() - 30_000)), now, step)).toBeNull();
    expect(matchTotp(secret, totp(secret, new Date(now.getTime() + 30_000)), now, step)).toBe(step + 1);
  });

  it("builds the otpauth URI authenticator apps scan", () => {
    const uri = otpauthUri({ secret: "JBSWY3DPEHPK3PXP", account: "ana@example.com", issuer: "Zapdesk" });
    expect(uri).toBe(
      "otpauth://totp/Zapdesk:ana%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Zapdesk&algorithm=SHA1&digits=6&period=30",
    );
  });
});
