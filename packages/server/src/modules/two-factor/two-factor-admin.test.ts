import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { auditRows, codeAt, codeStep, enrolTwoFactor, passwordStep } from "../../../test/two-factor.js";
import { resetPassword } from "../../admin/reset-password.js";

// Issue 22 §5: what admins do about two-factor sign-in: require it, and reset a lost phone's.
const clock = manualClock(new Date("2026-12-01T10:00:00Z"));
let t: TestApp;
let admin: TestUser;
let adminSecret: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = await makeAdmin(t);
  adminSecret = (await enrolTwoFactor(t, admin, clock)).secret;
});
afterAll(() => t.close());

const requireFor = (value: string, who: TestUser = admin) =>
  t.app.inject({ method: "PUT", url: "/api/settings/twoFactorRequired", headers: who.auth, payload: { value } });
const reset = (userId: number, who: TestUser = admin) =>
  t.app.inject({ method: "DELETE", url: `/api/users/${userId}/two-factor`, headers: who.auth });

describe("requiring two-factor sign-in", () => {
  it("is an admin setting (off, admins, everyone), audited, that only an admin with a second factor can turn on", async () => {
    const unenrolled = await makeAdmin(t);
    const refused = await requireFor("everyone", unenrolled);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("ERR_TOTP_ENROL_FIRST");
    expect((await requireFor("sometimes")).json().error).toBe("ERR_VALIDATION");
    expect((await requireFor("admins", await makeUser(t))).statusCode).toBe(403);

    expect((await requireFor("admins")).statusCode).toBe(200);
    const [row] = await t.app
      .inject({ method: "GET", url: "/api/audit?action=setting.changed&targetId=twoFactorRequired", headers: admin.auth })
      .then((res) => res.json().entries);
    expect(row).toMatchObject({ userId: admin.id, details: { from: "off", to: "admins" } });
    expect((await requireFor("off")).statusCode).toBe(200);
  });

  it("for admins: an admin without one enrols at sign-in before any token; agents are not asked", async () => {
    const other = await makeAdmin(t);
    const agent = await makeUser(t);
    const earlier = await login(t, other);
    expect((await requireFor("admins")).statusCode).toBe(200);
    try {
      // A session from before the requirement cannot be renewed: it ends, and sign-in leads to the enrolment.
      const refresh = await t.app.inject({ method: "POST", url: "/api/auth/refresh_token", cookies: { jrt: earlier.refresh } });
      expect(refresh.statusCode).toBe(403);
      expect(refresh.json().error).toBe("ERR_TOTP_REQUIRED");
      expect((await t.app.inject({ method: "GET", url: "/api/sessions", headers: earlier.auth })).statusCode).toBe(401);

      expect((await passwordStep(t, agent.email)).json().token).toEqual(expect.any(String));
      const first = (await passwordStep(t, other.email)).json();
      expect(first).toEqual({ twoFactor: "enrol", challenge: expect.any(String), expiresAt: expect.any(String) });
      // The enrolment challenge reaches nothing else: not the code step, not the app.
      expect((await codeStep(t, first.challenge, "123456")).json().error).toBe("ERR_TOTP_CHALLENGE_EXPIRED");
      const asToken = await t.app.inject({
        method: "GET",
        url: "/api/tickets",
        headers: { authorization: `Bearer ${first.challenge}` },
      });
      expect(asToken.statusCode).toBe(403);

      const enrol = await t.app.inject({
        method: "POST",
        url: "/api/auth/login/two-factor/enrol",
        payload: { challenge: first.challenge },
      });
      expect(enrol.statusCode).toBe(200);
      const { secret } = enrol.json();
      const wrong = await t.app.inject({
        method: "POST",
        url: "/api/auth/login/two-factor/confirm",
        payload: { challenge: first.challenge, code: codeAt(secret, new Date(clock.now().getTime() + 300_000)) },
      });
      expect(wrong.json().error).toBe("ERR_TOTP_INVALID");
      const confirm = await t.app.inject({
        method: "POST",
        url: "/api/auth/login/two-factor/confirm",
        payload: { challenge: first.challenge, code: codeAt(secret, clock.now()) },
      });
      expect(confirm.statusCode).toBe(200);
      const session = confirm.json();
      expect(session.user.id).toBe(other.id);
      expect(session.recoveryCodes).toHaveLength(10);
      expect(confirm.cookies.find((c) => c.name === "jrt")?.value).toEqual(expect.any(String));
      expect(await auditRows(t, "twoFactor.enabled", other.id)).toHaveLength(1);

      const auth = { authorization: `Bearer ${session.token}` };
      const status = await t.app.inject({ method: "GET", url: "/api/two-factor", headers: auth });
      expect(status.json()).toMatchObject({ enabled: true, required: true });
      // Required: it cannot be turned off.
      const off = await t.app.inject({
        method: "POST",
        url: "/api/two-factor/disable",
        headers: auth,
        payload: { password: "secret-pass" },
      });
      expect(off.statusCode).toBe(403);
      expect(off.json().error).toBe("ERR_TOTP_REQUIRED");
      // Next sign-in: a code.
      expect((await passwordStep(t, other.email)).json().twoFactor).toBe("verify");
    } finally {
      expect((await requireFor("off")).statusCode).toBe(200);
    }
  });
});

describe("an admin resets another user's second factor", () => {
  it("turns it off, in the audit trail; the user signs in with the password alone", async () => {
    const agent = await makeUser(t);
    await enrolTwoFactor(t, agent, clock);
    const list = await t.app.inject({ method: "GET", url: "/api/two-factor/users", headers: admin.auth });
    expect(list.json().userIds).toEqual(expect.arrayContaining([admin.id, agent.id]));

    const res = await reset(agent.id);
    expect(res.statusCode).toBe(200);
    const [row] = await auditRows(t, "twoFactor.reset", agent.id);
    expect(row).toMatchObject({ userId: admin.id, targetType: "user", details: { email: agent.email } });
    expect((await passwordStep(t, agent.email)).json().token).toEqual(expect.any(String));
    expect(
      (await t.app.inject({ method: "GET", url: "/api/two-factor/users", headers: admin.auth })).json().userIds,
    ).not.toContain(agent.id);

    const twice = await reset(agent.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe("ERR_TOTP_NOT_ENABLED");
  });

  it("is for admins, never one's own, and names an existing user", async () => {
    const agent = await makeUser(t);
    await enrolTwoFactor(t, agent, clock);
    const byAgent = await reset(admin.id, agent);
    expect(byAgent.statusCode).toBe(403);
    expect(byAgent.json().error).toBe("ERR_NO_PERMISSION");
    expect((await t.app.inject({ method: "GET", url: "/api/two-factor/users", headers: agent.auth })).statusCode).toBe(403);
    const own = await reset(admin.id);
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe("ERR_TOTP_RESET_SELF");
    expect((await reset(999999)).json().error).toBe("ERR_NO_USER_FOUND");
    expect((await reset(0)).json().error).toBe("ERR_VALIDATION");
    // The admin's own second factor is untouched by all this.
    const { twoFactor, challenge } = (await passwordStep(t, admin.email)).json();
    expect(twoFactor).toBe("verify");
    clock.advance(30_000);
    expect((await codeStep(t, challenge, codeAt(adminSecret, clock.now()))).statusCode).toBe(200);
    expect(await auditRows(t, "twoFactor.reset", agent.id)).toHaveLength(0);
  });
});

describe("the command line's way out (the only admin lost the phone and the recovery codes)", () => {
  it("`admin:reset-password -- <email> --two-factor` turns it off with the new password, in the audit trail", async () => {
    const lone = await makeAdmin(t);
    await enrolTwoFactor(t, lone, clock);
    // Without the flag, the password changes and the second factor stays.
    const plain = await resetPassword(t.database.db, lone.email);
    expect((await passwordStep(t, lone.email, undefined, plain?.password)).json().twoFactor).toBe("verify");

    const reset = await resetPassword(t.database.db, lone.email, { twoFactor: true });
    expect(reset?.twoFactorWasOn).toBe(true);
    expect((await passwordStep(t, lone.email, undefined, reset?.password)).json().token).toEqual(expect.any(String));
    const [row] = await auditRows(t, "twoFactor.reset", lone.id);
    expect(row).toMatchObject({ userId: null, userName: "reset-password (command line)", details: { via: "command line" } });
  });
});
