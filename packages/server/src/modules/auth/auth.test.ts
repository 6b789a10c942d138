import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, makeAdmin, makeUser, PASSWORD, uniqueIp } from "../../../test/factories.js";
import { ADMIN, createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { REFRESH_COOKIE } from "../../http/auth.js";

const clock = manualClock();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const refreshWith = (cookie?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/refresh_token",
    cookies: cookie === undefined ? {} : { [REFRESH_COOKIE]: cookie },
  });
const me = (auth: { authorization: string }) => t.app.inject({ method: "GET", url: "/api/users", headers: auth });
const setUserCreation = async (admin: { auth: { authorization: string } }, value: "enabled" | "disabled") => {
  const res = await t.app.inject({ method: "PUT", url: "/api/settings/userCreation", headers: admin.auth, payload: { value } });
  expect(res.statusCode).toBe(200);
};

describe("POST /api/auth/login", () => {
  it("signs the seeded admin in with a token, the user and an httpOnly SameSite=Strict refresh cookie", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: uniqueIp(),
      payload: { email: ADMIN.email.toUpperCase(), password: ADMIN.password },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toEqual(expect.any(String));
    expect(body.user).toMatchObject({ email: ADMIN.email, profile: "admin", queues: [] });
    expect(Object.keys(body.user).sort()).toEqual(["createdAt", "email", "id", "name", "profile", "queues"]);
    const cookie = res.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/api/auth" });
    expect((await me({ authorization: `Bearer ${body.token}` })).statusCode).toBe(200);
  });

  it("answers ERR_INVALID_CREDENTIALS for a wrong password and for an unknown email alike", async () => {
    const user = await makeUser(t);
    for (const payload of [
      { email: user.email, password: "wrong-password" },
      { email: "nobody@zapdesk.test", password: PASSWORD },
    ]) {
      const res = await t.app.inject({ method: "POST", url: "/api/auth/login", remoteAddress: uniqueIp(), payload });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: "ERR_INVALID_CREDENTIALS" });
      expect(res.cookies).toHaveLength(0);
    }
  });

  it("validates with field paths and refuses unknown fields", async () => {
    const missing = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "" } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe("ERR_VALIDATION");
    expect(missing.json().details).toEqual(
      expect.arrayContaining([
        { path: ["email"], message: "Required" },
        { path: ["password"], message: "Required" },
      ]),
    );
    const extra = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: ADMIN.email, password: ADMIN.password, remember: true },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error).toBe("ERR_VALIDATION");
  });
});

describe("token lifecycle", () => {
  it("answers 401 without a token and 403 ERR_TOKEN_EXPIRED for a forged one", async () => {
    const none = await t.app.inject({ method: "GET", url: "/api/users" });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe("ERR_SESSION_EXPIRED");
    const basic = await me({ authorization: "Basic YWRtaW46YWRtaW4=" });
    expect(basic.statusCode).toBe(401);
    const forged = await me({ authorization: "Bearer not.a.jwt" });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error).toBe("ERR_TOKEN_EXPIRED");
    const user = await makeUser(t);
    const otherKey = await createTestApp({ database: t.database });
    try {
      const foreign = await otherKey.services.tokens.signAccess(user.id);
      expect((await me({ authorization: `Bearer ${foreign}` })).statusCode).toBe(403);
    } finally {
      await otherKey.close();
    }
  });

  it("login -> access expires -> 403 -> refresh with the cookie -> works again", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    expect((await me(session.auth)).statusCode).toBe(200);

    clock.advance(15 * 60 * 1000 + 1000);
    const expired = await me(session.auth);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toBe("ERR_TOKEN_EXPIRED");

    const refreshed = await refreshWith(session.refresh);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().user).toMatchObject({ id: user.id, email: user.email });
    const rotated = refreshed.cookies.find((c) => c.name === REFRESH_COOKIE)?.value;
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(session.refresh);
    expect((await me({ authorization: `Bearer ${refreshed.json().token}` })).statusCode).toBe(200);
  });

  it("answers 401 to a refresh token past its 7 days", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    clock.advance(7 * 24 * 60 * 60 * 1000 + 1000);
    const res = await refreshWith(session.refresh);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
  });

  it("drops a user's dead refresh tokens when issuing a new one", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    expect((await refreshWith(session.refresh)).statusCode).toBe(200);
    const rows = () => t.database.query("select id from refresh_tokens where user_id = $1", [user.id]);
    // The rotated row stays for reuse detection; a week later both rows are dead.
    expect(await rows()).toHaveLength(2);
    clock.advance(7 * 24 * 60 * 60 * 1000 + 1000);
    await login(t, user);
    expect(await rows()).toHaveLength(1);
  });

  it("answers 401 to a valid token of a user id that does not exist", async () => {
    const token = await t.services.tokens.signAccess(987654, randomUUID());
    const res = await me({ authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
  });

  it("answers 401 to a refresh without cookie or with an unknown one", async () => {
    const none = await refreshWith();
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe("ERR_SESSION_EXPIRED");
    const unknown = await refreshWith("made-up-token");
    expect(unknown.statusCode).toBe(401);
    // The dead cookie is cleared so the browser stops sending it.
    expect(unknown.cookies.find((c) => c.name === REFRESH_COOKIE)?.value).toBe("");
  });

  const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
    res.cookies.find((c) => c.name === REFRESH_COOKIE)?.value as string;

  it("gives two tabs refreshing with the same cookie at once the same new session", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const other = await login(t, user);
    const [a, b] = await Promise.all([refreshWith(session.refresh), refreshWith(session.refresh)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(cookieOf(a)).toBeTruthy();
    expect(cookieOf(b)).toBe(cookieOf(a));
    for (const res of [a, b]) expect((await me({ authorization: `Bearer ${res.json().token}` })).statusCode).toBe(200);
    // Nobody was signed out: the shared successor and the other device still refresh.
    expect((await refreshWith(cookieOf(a))).statusCode).toBe(200);
    expect((await refreshWith(other.refresh)).statusCode).toBe(200);
  });

  it("answers a rotated token presented again within 30 s with its live successor, even a few rotations on", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const first = cookieOf(await refreshWith(session.refresh));
    clock.advance(10_000);
    const second = cookieOf(await refreshWith(first));
    clock.advance(10_000);
    const late = await refreshWith(session.refresh);
    expect(late.statusCode).toBe(200);
    expect(cookieOf(late)).toBe(second);
  });

  it("never revives a session logged out within the grace window", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const next = cookieOf(await refreshWith(session.refresh));
    await t.app.inject({ method: "DELETE", url: "/api/auth/logout", cookies: { [REFRESH_COOKIE]: next } });
    expect((await refreshWith(session.refresh)).statusCode).toBe(401);
  });

  it("revokes every session of the user when a rotated refresh token is used again after 30 s", async () => {
    const user = await makeUser(t);
    const first = await login(t, user);
    const second = await login(t, user);

    const rotated = await refreshWith(first.refresh);
    expect(rotated.statusCode).toBe(200);
    const next = cookieOf(rotated);

    clock.advance(30_001);
    const replay = await refreshWith(first.refresh);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe("ERR_SESSION_EXPIRED");
    // A leaked token means every refresh token of that user is dead, the new one and the other device's.
    expect((await refreshWith(next)).statusCode).toBe(401);
    expect((await refreshWith(second.refresh)).statusCode).toBe(401);
  });

  it("logout revokes the refresh token and clears the cookie", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const out = await t.app.inject({
      method: "DELETE",
      url: "/api/auth/logout",
      cookies: { [REFRESH_COOKIE]: session.refresh },
    });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === REFRESH_COOKIE)?.value).toBe("");
    expect((await refreshWith(session.refresh)).statusCode).toBe(401);
    // Logging out without a cookie is harmless.
    expect((await t.app.inject({ method: "DELETE", url: "/api/auth/logout" })).statusCode).toBe(200);
  });

  it("stops a deleted user's access and refresh tokens at once", async () => {
    const admin = await makeAdmin(t);
    const user = await makeUser(t);
    const session = await login(t, user);
    expect((await me(session.auth)).statusCode).toBe(200);
    const del = await t.app.inject({ method: "DELETE", url: `/api/users/${user.id}`, headers: admin.auth });
    expect(del.statusCode).toBe(200);
    const after = await me(session.auth);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe("ERR_SESSION_EXPIRED");
    expect((await refreshWith(session.refresh)).statusCode).toBe(401);
  });

  it("a profile change applies at once, in the same session", async () => {
    const admin = await makeAdmin(t);
    const user = await makeUser(t);
    const session = await login(t, user);
    expect((await t.app.inject({ method: "GET", url: "/api/settings", headers: session.auth })).statusCode).toBe(403);
    const promote = await t.app.inject({
      method: "PUT",
      url: `/api/users/${user.id}`,
      headers: admin.auth,
      payload: { profile: "admin" },
    });
    expect(promote.statusCode).toBe(200);
    // The access token is the same; the profile is read fresh on every request. Issue 22 §5: the
    // session goes on (a role is not a credential; before, its refresh token was revoked, which
    // only signed the user out up to 15 minutes later), and a refresh reports the new profile.
    expect((await t.app.inject({ method: "GET", url: "/api/settings", headers: session.auth })).statusCode).toBe(200);
    const refreshed = await refreshWith(session.refresh);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().user.profile).toBe("admin");
  });

  it("a password change ends the user's other sessions but the one that changed it, a name change none", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const other = await login(t, user);
    const rename = await t.app.inject({
      method: "PUT",
      url: `/api/users/${user.id}`,
      headers: session.auth,
      payload: { name: "Renamed Agent" },
    });
    expect(rename.statusCode).toBe(200);
    const refreshed = await refreshWith(session.refresh);
    expect(refreshed.statusCode).toBe(200);
    const cookie = refreshed.cookies.find((c) => c.name === REFRESH_COOKIE)?.value as string;
    const change = await t.app.inject({
      method: "PUT",
      url: `/api/users/${user.id}`,
      headers: session.auth,
      payload: { password: "another-secret" },
    });
    expect(change.statusCode).toBe(200);
    // Issue 22 §5: whoever typed the new password stays signed in on this device; every other
    // session (a thief's, a forgotten browser) ends at once, access token included.
    expect((await refreshWith(cookie)).statusCode).toBe(200);
    expect((await me(session.auth)).statusCode).toBe(200);
    expect((await me(other.auth)).statusCode).toBe(401);
    expect((await refreshWith(other.refresh)).statusCode).toBe(401);
    expect((await login(t, { email: user.email, password: "another-secret" })).token).toBeTruthy();
  });
});

describe("POST /api/auth/signup", () => {
  const signup = (payload: unknown) =>
    t.app.inject({ method: "POST", url: "/api/auth/signup", remoteAddress: uniqueIp(), payload: payload as object });
  let admin: Awaited<ReturnType<typeof makeAdmin>>;
  beforeAll(async () => {
    admin = await makeAdmin(t);
    await setUserCreation(admin, "enabled");
  });

  it("creates an agent who can then sign in", async () => {
    const email = `signup-${Date.now()}@zapdesk.test`;
    const res = await signup({ name: "New Agent", email: email.toUpperCase(), password: "secret" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: expect.stringMatching(/sign in/) });
    const rows = await t.database.query<{ name: string; profile: string }>("select name, profile from users where email = $1", [
      email,
    ]);
    expect(rows).toEqual([{ name: "New Agent", profile: "user" }]);
    expect((await login(t, { email, password: "secret" })).token).toBeTruthy();
  });

  it("never creates an admin: an extra profile field is refused", async () => {
    const email = `sneaky-${Date.now()}@zapdesk.test`;
    const res = await signup({ name: "Sneaky", email, password: "secret", profile: "admin" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_VALIDATION");
    const rows = await t.database.query<{ profile: string }>("select profile from users where email = $1", [email]);
    expect(rows).toEqual([]);
  });

  it("validates name, email and password with field paths", async () => {
    const res = await signup({ name: "A", email: "not-an-email", password: "123" });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { path: ["name"], message: "Too Short!" },
        { path: ["email"], message: "Invalid email" },
        { path: ["password"], message: "Too Short!" },
      ]),
    );
    const missing = await signup({});
    expect(
      missing
        .json()
        .details.map((d: { path: string[] }) => d.path[0])
        .sort(),
    ).toEqual(["email", "name", "password"]);
  });

  it("answers a taken email exactly as a free one, and changes nothing", async () => {
    const user = await makeUser(t);
    const free = await signup({ name: "Fresh Face", email: `fresh-${Date.now()}@zapdesk.test`, password: "secret" });
    const taken = await signup({ name: "Copy Cat", email: user.email.toUpperCase(), password: "another" });
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.body).toBe(free.body);
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(free.headers).sort());
    const rows = await t.database.query<{ name: string }>("select name from users where lower(email) = $1", [user.email]);
    expect(rows).toEqual([{ name: user.name }]);
    expect((await login(t, user)).token).toBeTruthy();
    await expect(login(t, { email: user.email, password: "another" })).rejects.toThrow(/401/);
  });

  it("answers 403 ERR_USER_CREATION_DISABLED while userCreation is disabled", async () => {
    await setUserCreation(admin, "disabled");
    try {
      const email = `late-${Date.now()}@zapdesk.test`;
      const res = await signup({ name: "Too Late", email, password: "secret" });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("ERR_USER_CREATION_DISABLED");
      expect(await t.database.query("select id from users where email = $1", [email])).toEqual([]);
    } finally {
      await setUserCreation(admin, "enabled");
    }
  });
});
