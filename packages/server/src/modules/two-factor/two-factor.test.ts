import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, PASSWORD, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { auditRows, codeAt, enrolTwoFactor, passwordStep } from "../../../test/two-factor.js";
import { userRecoveryCodes, userTwoFactor } from "../../db/schema.js";

// Issue 22 §5: a user turns two-factor sign-in on and off in their own account.
const clock = manualClock(new Date("2026-12-01T10:00:00Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const post = (url: string, user: TestUser, payload?: object) =>
  t.app.inject({ method: "POST", url, headers: user.auth, payload });
const status = async (user: TestUser) =>
  (await t.app.inject({ method: "GET", url: "/api/two-factor", headers: user.auth })).json();

describe("enrolment", () => {
  it("is on only once a first code confirms it; the secret is sealed and the recovery codes kept as hashes", async () => {
    const user = await makeUser(t);
    expect(await status(user)).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false });

    const enrol = await post("/api/two-factor/enrol", user);
    expect(enrol.statusCode).toBe(200);
    const { secret, otpauthUri } = enrol.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toBe(
      `otpauth://totp/Zapdesk:${encodeURIComponent(user.email)}?secret=${secret}&issuer=Zapdesk&algorithm=SHA1&digits=6&period=30`,
    );
    // Not confirmed yet: still off, and the password alone still signs in.
    expect((await status(user)).enabled).toBe(false);
    expect((await passwordStep(t, user.email)).json().token).toEqual(expect.any(String));

    const [stored] = await t.database.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, user.id));
    expect(stored.secret).toMatch(/^v1:/);
    expect(stored.secret).not.toContain(secret);
    expect(stored.confirmedAt).toBeNull();

    const wrong = await post("/api/two-factor/confirm", user, {
      code: codeAt(secret, new Date(clock.now().getTime() + 120_000)),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe("ERR_TOTP_INVALID");
    expect(await auditRows(t, "auth.twoFactorFailed", user.id)).toHaveLength(1);
    expect((await status(user)).enabled).toBe(false);

    const confirm = await post("/api/two-factor/confirm", user, { code: codeAt(secret, clock.now()) });
    expect(confirm.statusCode).toBe(200);
    const { recoveryCodes } = confirm.json();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);

    const now = await status(user);
    expect(now).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    expect(now.enabledAt).toBe(clock.now().toISOString());
    const hashes = await t.database.db.select().from(userRecoveryCodes).where(eq(userRecoveryCodes.userId, user.id));
    expect(hashes).toHaveLength(10);
    for (const row of hashes) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(recoveryCodes).not.toContain(row.codeHash);
    }
    expect(await auditRows(t, "twoFactor.enabled", user.id)).toHaveLength(1);

    // On: a second enrolment is refused, and the confirming code cannot be used again.
    const again = await post("/api/two-factor/enrol", user);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("ERR_TOTP_ALREADY_ENABLED");
    expect((await post("/api/two-factor/confirm", user, { code: codeAt(secret, clock.now()) })).json().error).toBe(
      "ERR_TOTP_ALREADY_ENABLED",
    );
    expect(JSON.stringify(await status(user))).not.toContain(secret);
  });

  it("replaces an unconfirmed secret with each new enrolment (the old one's codes no longer confirm)", async () => {
    const user = await makeUser(t);
    const first = (await post("/api/two-factor/enrol", user)).json().secret;
    const second = (await post("/api/two-factor/enrol", user)).json().secret;
    expect(second).not.toBe(first);
    expect((await post("/api/two-factor/confirm", user, { code: codeAt(first, clock.now()) })).statusCode).toBe(400);
    expect((await post("/api/two-factor/confirm", user, { code: codeAt(second, clock.now()) })).statusCode).toBe(200);
  });

  it("validates the code and needs a session", async () => {
    const user = await makeUser(t);
    await post("/api/two-factor/enrol", user);
    for (const code of ["12345", "12a456", "", "1234567"]) {
      const res = await post("/api/two-factor/confirm", user, { code });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().details[0].path).toEqual(["code"]);
    }
    expect((await post("/api/two-factor/confirm", user, {})).json().error).toBe("ERR_VALIDATION");
    expect((await t.app.inject({ method: "GET", url: "/api/two-factor" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: "/api/two-factor/enrol" })).statusCode).toBe(401);
    const noPending = await post("/api/two-factor/confirm", await makeUser(t), { code: "123456" });
    expect(noPending.statusCode).toBe(409);
    expect(noPending.json().error).toBe("ERR_TOTP_NOT_ENABLED");
  });
});

describe("turning it off and renewing the recovery codes", () => {
  it("turns off with a current code; the password alone signs in again", async () => {
    const user = await makeUser(t);
    const { secret } = await enrolTwoFactor(t, user, clock);
    expect((await passwordStep(t, user.email)).json().twoFactor).toBe("verify");
    const res = await post("/api/two-factor/disable", user, { code: codeAt(secret, clock.now()) });
    expect(res.statusCode).toBe(200);
    expect(await status(user)).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    expect(await auditRows(t, "twoFactor.disabled", user.id)).toHaveLength(1);
    expect(await t.database.db.select().from(userRecoveryCodes).where(eq(userRecoveryCodes.userId, user.id))).toEqual([]);
    expect((await passwordStep(t, user.email)).json().token).toEqual(expect.any(String));
  });

  it("turns off with the password, never with a wrong one", async () => {
    const user = await makeUser(t);
    await enrolTwoFactor(t, user, clock);
    const wrong = await post("/api/two-factor/disable", user, { password: "not-it" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe("ERR_TOTP_INVALID");
    expect((await status(user)).enabled).toBe(true);
    expect(await auditRows(t, "auth.twoFactorFailed", user.id)).toHaveLength(1);
    expect((await post("/api/two-factor/disable", user, {})).json().error).toBe("ERR_VALIDATION");
    expect((await post("/api/two-factor/disable", user, { password: PASSWORD })).statusCode).toBe(200);
    const twice = await post("/api/two-factor/disable", user, { password: PASSWORD });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe("ERR_TOTP_NOT_ENABLED");
  });

  it("renews the recovery codes for a current code: the old ones stop working", async () => {
    const user = await makeUser(t);
    const { secret, recoveryCodes: old } = await enrolTwoFactor(t, user, clock);
    const refused = await post("/api/two-factor/recovery-codes", user, { code: old[0] });
    expect(refused.json().error).toBe("ERR_VALIDATION");
    const res = await post("/api/two-factor/recovery-codes", user, { code: codeAt(secret, clock.now()) });
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => old.includes(code))).toBe(false);
    expect(await auditRows(t, "twoFactor.recoveryCodesRenewed", user.id)).toHaveLength(1);
    const login = (await passwordStep(t, user.email)).json();
    const withOld = await t.app.inject({
      method: "POST",
      url: "/api/auth/login/two-factor",
      payload: { challenge: login.challenge, code: old[1] },
    });
    expect(withOld.json().error).toBe("ERR_TOTP_INVALID");
    const withNew = await t.app.inject({
      method: "POST",
      url: "/api/auth/login/two-factor",
      payload: { challenge: login.challenge, code: fresh[1] },
    });
    expect(withNew.statusCode).toBe(200);
  });
});
