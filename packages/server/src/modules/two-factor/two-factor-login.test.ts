import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, uniqueIp } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { auditRows, codeAt, codeStep, enrolTwoFactor, passwordStep } from "../../../test/two-factor.js";
import { CHALLENGE_TTL_SECONDS } from "./challenges.js";

// Issue 22 §5: signing in with a second factor. A small allowance of failures (2 per user) to see the limit.
const clock = manualClock(new Date("2026-12-01T10:00:00Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, config: { rateLimit: { windowMs: 60_000, perIp: 50, perEmail: 2 } } });
});
afterAll(() => t.close());

async function enrolledUser() {
  const user = await makeUser(t);
  return { user, ...(await enrolTwoFactor(t, user, clock)) };
}

describe("sign-in with a second factor", () => {
  it("answers a challenge instead of a session, and a code completes it", async () => {
    const { user, secret } = await enrolledUser();
    const first = await passwordStep(t, user.email);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toEqual({ twoFactor: "verify", challenge: expect.any(String), expiresAt: expect.any(String) });
    expect(new Date(body.expiresAt).getTime()).toBe(
      Math.floor(clock.now().getTime() / 1000) * 1000 + CHALLENGE_TTL_SECONDS * 1000,
    );
    expect(first.cookies.find((c) => c.name === "jrt")).toBeUndefined();
    expect(await auditRows(t, "auth.login", user.id)).toHaveLength(0);

    // The challenge is no access token.
    const asToken = await t.app.inject({
      method: "GET",
      url: "/api/sessions",
      headers: { authorization: `Bearer ${body.challenge}` },
    });
    expect(asToken.statusCode).toBe(403);
    expect(asToken.json().error).toBe("ERR_TOKEN_EXPIRED");

    const second = await codeStep(t, body.challenge, codeAt(secret, clock.now()));
    expect(second.statusCode).toBe(200);
    expect(second.json().user.id).toBe(user.id);
    expect(second.cookies.find((c) => c.name === "jrt")?.value).toEqual(expect.any(String));
    const sessions = await t.app.inject({
      method: "GET",
      url: "/api/sessions",
      headers: { authorization: `Bearer ${second.json().token}` },
    });
    expect(sessions.statusCode).toBe(200);
    // The factory's session and this new one, which the token belongs to.
    expect(sessions.json().sessions).toHaveLength(2);
    expect(sessions.json().sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(await auditRows(t, "auth.login", user.id)).toHaveLength(1);
  });

  it("accepts a code once: the same code again is refused, the next one works", async () => {
    const { user, secret } = await enrolledUser();
    const code = codeAt(secret, clock.now());
    expect((await codeStep(t, (await passwordStep(t, user.email)).json().challenge, code)).statusCode).toBe(200);
    const replay = await codeStep(t, (await passwordStep(t, user.email)).json().challenge, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe("ERR_TOTP_INVALID");
    // The previous step's code (still within the window) is older than the one used: refused too.
    const older = await codeStep(
      t,
      (await passwordStep(t, user.email)).json().challenge,
      codeAt(secret, new Date(clock.now().getTime() - 30_000)),
    );
    expect(older.json().error).toBe("ERR_TOTP_INVALID");
    clock.advance(30_000);
    expect(
      (await codeStep(t, (await passwordStep(t, user.email)).json().challenge, codeAt(secret, clock.now()))).statusCode,
    ).toBe(200);
  });

  it("accepts a recovery code once, and says how many are left", async () => {
    const { user, recoveryCodes } = await enrolledUser();
    const challenge = () => passwordStep(t, user.email).then((res) => res.json().challenge as string);
    // Typed in capitals and with spaces, it is the same code.
    const typed = ` ${recoveryCodes[3].toUpperCase()} `;
    const used = await codeStep(t, await challenge(), typed);
    expect(used.statusCode).toBe(200);
    const again = await codeStep(t, await challenge(), recoveryCodes[3]);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe("ERR_TOTP_INVALID");
    const [row] = await auditRows(t, "twoFactor.recoveryCodeUsed", user.id);
    expect(row.details).toEqual({ left: 9 });
    const status = await t.app.inject({
      method: "GET",
      url: "/api/two-factor",
      headers: { authorization: `Bearer ${used.json().token}` },
    });
    expect(status.json().recoveryCodesLeft).toBe(9);
  });

  it("makes wrong codes wait like wrong passwords, and records each one", async () => {
    const { user, secret } = await enrolledUser();
    const challenge = (await passwordStep(t, user.email)).json().challenge;
    const wrong = codeAt(secret, new Date(clock.now().getTime() + 10 * 60_000));
    // From different addresses: the limit is the user's, wherever the codes come from.
    for (let i = 0; i < 2; i++) expect((await codeStep(t, challenge, wrong, uniqueIp())).json().error).toBe("ERR_TOTP_INVALID");
    const limited = await codeStep(t, challenge, codeAt(secret, clock.now()), uniqueIp());
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe("ERR_RATE_LIMITED");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    const failures = await auditRows(t, "auth.twoFactorFailed", user.id);
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({ userId: user.id, userEmail: user.email, details: { via: "login" } });
    expect(failures[0].ip).not.toBe("");
    // Once the wait is over, the right code goes through (and the count starts again).
    clock.advance(2_000);
    expect((await codeStep(t, challenge, codeAt(secret, clock.now()))).statusCode).toBe(200);
  });

  it("refuses an expired, forged or misused challenge", async () => {
    const { user, secret } = await enrolledUser();
    const { challenge } = (await passwordStep(t, user.email)).json();
    for (const bad of [`${challenge}x`, "not-a-token"]) {
      const res = await codeStep(t, bad, codeAt(secret, clock.now()));
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe("ERR_TOTP_CHALLENGE_EXPIRED");
    }
    // A `verify` challenge does not start an enrolment.
    const enrol = await t.app.inject({ method: "POST", url: "/api/auth/login/two-factor/enrol", payload: { challenge } });
    expect(enrol.json().error).toBe("ERR_TOTP_CHALLENGE_EXPIRED");
    // An access token is no challenge either.
    expect((await codeStep(t, user.token, codeAt(secret, clock.now()))).json().error).toBe("ERR_TOTP_CHALLENGE_EXPIRED");
    clock.advance((CHALLENGE_TTL_SECONDS + 1) * 1000);
    const late = await codeStep(t, challenge, codeAt(secret, clock.now()));
    expect(late.json().error).toBe("ERR_TOTP_CHALLENGE_EXPIRED");
    const validation = await t.app.inject({ method: "POST", url: "/api/auth/login/two-factor", payload: { challenge } });
    expect(validation.statusCode).toBe(400);
    expect(validation.json().details[0].path).toEqual(["code"]);
  });

  it("voids the challenge when the password changes before the second step", async () => {
    const { user, secret } = await enrolledUser();
    const { challenge } = (await passwordStep(t, user.email)).json();
    const change = await t.app.inject({
      method: "PUT",
      url: `/api/users/${user.id}`,
      headers: user.auth,
      payload: { password: "another-pass" },
    });
    expect(change.statusCode).toBe(200);
    expect((await codeStep(t, challenge, codeAt(secret, clock.now()))).json().error).toBe("ERR_TOTP_CHALLENGE_EXPIRED");
  });
});

describe("OpenAPI", () => {
  it("documents the two-factor routes and the login's two answers at /api/docs", async () => {
    const docs = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    expect(Object.keys(docs.paths)).toEqual(
      expect.arrayContaining([
        "/api/auth/login/two-factor",
        "/api/auth/login/two-factor/enrol",
        "/api/auth/login/two-factor/confirm",
        "/api/two-factor",
        "/api/two-factor/enrol",
        "/api/two-factor/confirm",
        "/api/two-factor/recovery-codes",
        "/api/two-factor/disable",
        "/api/two-factor/users",
        "/api/users/{id}/two-factor",
      ]),
    );
    const login = JSON.stringify(docs.paths["/api/auth/login"].post.responses["200"]);
    expect(login).toContain("challenge");
    expect(login).toContain("token");
  });
});
