import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { ACCESS_TOKEN_TTL_SECONDS, VERIFIED_ACCESS_CACHE_SIZE } from "./tokens.js";

// Issue 10 item 3: an access token is verified once, then remembered (bounded) until it expires.
// On a whole second: a token expires at its `exp` second.
const clock = manualClock(new Date(Math.floor(Date.now() / 1000) * 1000));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, start: false });
});
afterAll(() => t.close());

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: { code?: string; status?: number; message?: string }) => `${error.code} ${error.status} ${error.message}`,
  );

describe("verified access tokens", () => {
  it("are checked once, still expire on time, and forged ones are never remembered", async () => {
    const { tokens } = t.services;
    const before = tokens._verifiedCount();
    const token = await tokens.signAccess(1);
    for (let i = 0; i < 3; i++) expect(await tokens.verifyAccess(token)).toBe(1);
    expect(tokens._verifiedCount()).toBe(before + 1);

    const forged = `${token.slice(0, -2)}xx`;
    expect(await code(tokens.verifyAccess(forged))).toBe("ERR_TOKEN_EXPIRED 403 Invalid token.");
    expect(tokens._verifiedCount()).toBe(before + 1);

    clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000 - 1);
    expect(await tokens.verifyAccess(token)).toBe(1);
    clock.advance(1);
    expect(await code(tokens.verifyAccess(token))).toBe("ERR_TOKEN_EXPIRED 403 Session expired. Please refresh.");
    const res = await t.app.inject({ method: "GET", url: "/api/tickets", headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(403);
  });

  it("keep at most a bounded number", async () => {
    const { tokens } = t.services;
    for (let i = 0; i <= VERIFIED_ACCESS_CACHE_SIZE; i++) {
      clock.advance(1000);
      await tokens.verifyAccess(await tokens.signAccess(1));
    }
    expect(tokens._verifiedCount()).toBe(VERIFIED_ACCESS_CACHE_SIZE);
  });
});
