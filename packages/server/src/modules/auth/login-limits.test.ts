import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeUser, PASSWORD, uniqueIp } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";

// Issue 12, item 5: only failures count, and the right password is never locked out for long.
const clock = manualClock();
let t: TestApp;

beforeAll(async () => {
  // A tiny allowance: 4 failures per address, 2 per email and address.
  t = await createTestApp({ clock, config: { rateLimit: { windowMs: 60_000, perIp: 4, perEmail: 2 } } });
});
afterAll(() => t.close());

describe("login limits count failures only", () => {
  const attempt = (email: string, ip: string, password = "wrong-password") =>
    t.app.inject({ method: "POST", url: "/api/auth/login", remoteAddress: ip, payload: { email, password } });

  it("never counts a successful login against the address (an office behind one NAT)", async () => {
    const ip = uniqueIp();
    const users = await Promise.all([makeUser(t), makeUser(t), makeUser(t)]);
    for (let round = 0; round < 4; round++) {
      for (const user of users) expect((await attempt(user.email, ip, PASSWORD)).statusCode).toBe(200);
    }
    // Twelve sign-ins later, the address still has its whole allowance of failures.
    for (let i = 0; i < 4; i++) expect((await attempt(`typo-${i}@zapdesk.test`, ip)).statusCode).toBe(401);
    const fifth = await attempt("typo-5@zapdesk.test", ip);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().error).toBe("ERR_RATE_LIMITED");
    expect(Number(fifth.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("lets the right password through from another address, however many failures that email had", async () => {
    const user = await makeUser(t);
    for (let i = 0; i < 12; i++) expect((await attempt(user.email, uniqueIp())).statusCode).toBe(401);
    const attacker = uniqueIp();
    for (let i = 0; i < 2; i++) expect((await attempt(user.email, attacker)).statusCode).toBe(401);
    expect((await attempt(user.email, attacker)).statusCode).toBe(429);
    expect((await attempt(user.email, uniqueIp(), PASSWORD)).statusCode).toBe(200);
  });

  it("makes only a short, growing wait on the same address, and the right password gets through after it", async () => {
    const user = await makeUser(t);
    const ip = uniqueIp();
    expect((await attempt(user.email, ip)).statusCode).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      expect((await attempt(user.email, ip)).statusCode).toBe(401);
      // During the wait even the right password is not looked at (guessing gets nowhere)...
      const refused = await attempt(user.email, ip, PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toBe("ERR_RATE_LIMITED");
      waits.push(Number(refused.headers["retry-after"]));
      clock.advance(waits[i] * 1000);
    }
    // ...but the wait is short: it doubles from a second up to a minute, never a lock-out.
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60]);
    expect((await attempt(user.email, ip, PASSWORD)).statusCode).toBe(200);
  });

  it("limits signup attempts per address, successful or not", async () => {
    const admin = await makeAdmin(t);
    const open = await t.app.inject({
      method: "PUT",
      url: "/api/settings/userCreation",
      headers: admin.auth,
      payload: { value: "enabled" },
    });
    expect(open.statusCode).toBe(200);
    const ip = uniqueIp();
    const signup = (i: number) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/signup",
        remoteAddress: ip,
        payload: { name: "Rate Limited", email: `rl-${i}-${Date.now()}@zapdesk.test`, password: "secret" },
      });
    for (let i = 0; i < 4; i++) expect((await signup(i)).statusCode).toBe(200);
    const res = await signup(5);
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe("ERR_RATE_LIMITED");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });
});
