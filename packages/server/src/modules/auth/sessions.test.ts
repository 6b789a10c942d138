import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, makeAdmin, makeUser, PASSWORD, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { REFRESH_COOKIE } from "../../http/auth.js";

// Issue 22 §5: sessions a user sees and ends, and that end the HTTP access at once.
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ start: false });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

type Auth = { authorization: string };
const me = (auth: Auth) => t.app.inject({ method: "GET", url: "/api/users", headers: auth });
const refreshWith = (cookie: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/refresh_token", cookies: { [REFRESH_COOKIE]: cookie } });
const sessionsOf = async (auth: Auth) => {
  const res = await t.app.inject({ method: "GET", url: "/api/sessions", headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json().sessions as { id: string; userAgent: string; ip: string; current: boolean; lastSeenAt: string }[];
};
const signIn = async (user: TestUser, userAgent: string, remoteAddress: string) => {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress,
    headers: { "user-agent": userAgent },
    payload: { email: user.email, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  const token = res.json().token as string;
  return { auth: { authorization: `Bearer ${token}` }, refresh: res.cookies.find((c) => c.name === REFRESH_COOKIE)!.value };
};

describe("sessions", () => {
  it("after logout the old access token is refused at once (not 15 minutes later)", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    expect((await me(session.auth)).statusCode).toBe(200);
    const out = await t.app.inject({ method: "DELETE", url: "/api/auth/logout", cookies: { [REFRESH_COOKIE]: session.refresh } });
    expect(out.statusCode).toBe(200);
    const after = await me(session.auth);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe("ERR_SESSION_EXPIRED");
    // Another session of the same user goes on.
    expect((await me(user.auth)).statusCode).toBe(200);
  });

  it("logout with only the access token (no cookie) ends that session too", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const out = await t.app.inject({ method: "DELETE", url: "/api/auth/logout", headers: session.auth });
    expect(out.statusCode).toBe(200);
    expect((await me(session.auth)).statusCode).toBe(401);
    expect((await refreshWith(session.refresh)).statusCode).toBe(401);
  });

  it("lists the user's sessions with device and address, and ends one from another device", async () => {
    const user = await makeUser(t);
    const phone = await signIn(user, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile Safari", "10.9.0.1");
    const laptop = await signIn(user, "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0", "10.9.0.2");
    const list = await sessionsOf(laptop.auth);
    const current = list.find((s) => s.current);
    expect(current).toMatchObject({ ip: "10.9.0.2", userAgent: expect.stringContaining("Linux") });
    const phoneRow = list.find((s) => s.ip === "10.9.0.1");
    expect(phoneRow).toMatchObject({ current: false, userAgent: expect.stringContaining("iPhone") });

    const end = await t.app.inject({ method: "DELETE", url: `/api/sessions/${phoneRow!.id}`, headers: laptop.auth });
    expect(end.statusCode).toBe(200);
    expect((await me(phone.auth)).statusCode).toBe(401);
    expect((await refreshWith(phone.refresh)).statusCode).toBe(401);
    expect((await me(laptop.auth)).statusCode).toBe(200);
    expect((await sessionsOf(laptop.auth)).some((s) => s.id === phoneRow!.id)).toBe(false);

    // Someone else's session is not found (never ended), and a malformed id is a 400.
    const adminSessions = await sessionsOf(admin.auth);
    const foreign = await t.app.inject({ method: "DELETE", url: `/api/sessions/${adminSessions[0]!.id}`, headers: laptop.auth });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe("ERR_NO_SESSION_FOUND");
    expect((await me(admin.auth)).statusCode).toBe(200);
    const bad = await t.app.inject({ method: "DELETE", url: "/api/sessions/not-a-uuid", headers: laptop.auth });
    expect(bad.statusCode).toBe(400);
  });

  it("an admin ends all of a user's sessions; an agent may not", async () => {
    const user = await makeUser(t);
    const a = await login(t, user);
    const b = await login(t, user);
    const refused = await t.app.inject({ method: "DELETE", url: `/api/users/${admin.id}/sessions`, headers: user.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("ERR_NO_PERMISSION");
    const res = await t.app.inject({ method: "DELETE", url: `/api/users/${user.id}/sessions`, headers: admin.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().ended).toBe(3);
    for (const auth of [a.auth, b.auth, user.auth]) expect((await me(auth)).statusCode).toBe(401);
    for (const refresh of [a.refresh, b.refresh]) expect((await refreshWith(refresh)).statusCode).toBe(401);
    expect((await me(admin.auth)).statusCode).toBe(200);
    const missing = await t.app.inject({ method: "DELETE", url: "/api/users/987654/sessions", headers: admin.auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("ERR_NO_USER_FOUND");
  });

  it("an admin changing a user's password ends all that user's sessions", async () => {
    const user = await makeUser(t);
    const a = await login(t, user);
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/users/${user.id}`,
      headers: admin.auth,
      payload: { password: "changed-by-admin" },
    });
    expect(res.statusCode).toBe(200);
    for (const auth of [a.auth, user.auth]) expect((await me(auth)).statusCode).toBe(401);
    expect((await me(admin.auth)).statusCode).toBe(200);
  });

  it("a refresh keeps the session (same id) and moves its last-seen time", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const [before] = (await sessionsOf(session.auth)).filter((s) => s.current);
    await new Promise((r) => setTimeout(r, 20));
    const refreshed = await refreshWith(session.refresh);
    expect(refreshed.statusCode).toBe(200);
    const [after] = (await sessionsOf({ authorization: `Bearer ${refreshed.json().token}` })).filter((s) => s.current);
    expect(after!.id).toBe(before!.id);
    expect(new Date(after!.lastSeenAt).getTime()).toBeGreaterThan(new Date(before!.lastSeenAt).getTime());
  });

  it("an access token from before sessions (no sid) is 403, so the client refreshes into its session", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const now = Math.floor(Date.now() / 1000);
    const legacy = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(user.id))
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const res = await me({ authorization: `Bearer ${legacy}` });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_TOKEN_EXPIRED");
    const refreshed = await refreshWith(session.refresh);
    expect(refreshed.statusCode).toBe(200);
    expect((await me({ authorization: `Bearer ${refreshed.json().token}` })).statusCode).toBe(200);
  });
});
