import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { login, makeAdmin, makeUser, type TestUser } from "../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../test/harness.js";
import { disconnection, listen, socketClients } from "../../test/sockets.js";
import { REFRESH_COOKIE } from "../http/auth.js";

// Sockets end with the session: logout, a new password, an expired access token (issue 12, item 4).
const clock = manualClock();
const clients = socketClients();
let t: TestApp;
let url: string;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ clock });
  url = await listen(t);
  admin = await makeAdmin(t);
});
afterEach(() => clients.closeAll());
afterAll(() => t.close());

const logout = (app: TestApp, refresh: string) =>
  app.app.inject({ method: "DELETE", url: "/api/auth/logout", cookies: { [REFRESH_COOKIE]: refresh } });
const changePassword = (app: TestApp, who: TestUser, userId: number) =>
  app.app.inject({ method: "PUT", url: `/api/users/${userId}`, headers: who.auth, payload: { password: "a-new-secret" } });

describe("sockets and the session", () => {
  it("are dropped on logout", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const socket = await clients.connect(url, session.token);
    const closed = disconnection(socket);
    expect((await logout(t, session.refresh)).statusCode).toBe(200);
    expect(await closed).toBe("io server disconnect");
  });

  it("are dropped when the password changes: the user's other sessions', or all of them when an admin changes it", async () => {
    const user = await makeUser(t);
    // Issue 22 §5: the session that changes its own password stays; the user's other sessions end.
    const other = await login(t, user);
    const sockets = await Promise.all([clients.connect(url, other.token), clients.connect(url, other.token)]);
    const closed = sockets.map(disconnection);
    const here = await clients.connect(url, user.token);
    const bystander = await clients.connect(url, admin.token);
    expect((await changePassword(t, user, user.id)).statusCode).toBe(200);
    expect(await Promise.all(closed)).toEqual(["io server disconnect", "io server disconnect"]);
    expect(here.connected).toBe(true);

    const again = await clients.connect(url, (await login(t, { email: user.email, password: "a-new-secret" })).token);
    const closedAgain = [again, here].map(disconnection);
    expect((await changePassword(t, admin, user.id)).statusCode).toBe(200);
    expect(await Promise.all(closedAgain)).toEqual(["io server disconnect", "io server disconnect"]);
    expect(bystander.connected).toBe(true);
  });

  it("are dropped when their session is ended from another device, and the others stay", async () => {
    const user = await makeUser(t);
    const phone = await login(t, user);
    const laptop = await login(t, user);
    const phoneSocket = await clients.connect(url, phone.token);
    const laptopSocket = await clients.connect(url, laptop.token);
    const closed = disconnection(phoneSocket);
    const list = await t.app.inject({ method: "GET", url: "/api/sessions", headers: laptop.auth });
    const others: string[] = list
      .json()
      .sessions.filter((s: { current: boolean }) => !s.current)
      .map((s: { id: string }) => s.id);
    expect(others.length).toBeGreaterThan(0);
    for (const id of others) {
      expect((await t.app.inject({ method: "DELETE", url: `/api/sessions/${id}`, headers: laptop.auth })).statusCode).toBe(200);
    }
    expect(await closed).toBe("io server disconnect");
    expect(laptopSocket.connected).toBe(true);
    await expect(clients.connect(url, phone.token)).rejects.toThrow("ERR_SESSION_EXPIRED");
  });

  it("stop past the access token's expiry, and a fresh token connects again", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const socket = await clients.connect(url, session.token);
    const closed = disconnection(socket);
    expect(t.realtime.expireSockets()).toBe(0);
    clock.advance(15 * 60 * 1000 + 1000);
    expect(t.realtime.expireSockets()).toBeGreaterThanOrEqual(1);
    expect(await closed).toBe("io server disconnect");
    await expect(clients.connect(url, session.token)).rejects.toThrow("ERR_SESSION_EXPIRED");

    const refreshed = await t.app.inject({
      method: "POST",
      url: "/api/auth/refresh_token",
      cookies: { [REFRESH_COOKIE]: session.refresh },
    });
    expect((await clients.connect(url, refreshed.json().token)).connected).toBe(true);
  });

  it("refuse a room request from a socket whose token expired, before any sweep", async () => {
    const user = await makeUser(t);
    const socket = await clients.connect(url, user.token);
    const closed = disconnection(socket);
    clock.advance(15 * 60 * 1000 + 1000);
    socket.emit("joinChatBox", 1, () => {});
    expect(await closed).toBe("io server disconnect");
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)("scaled out (TEST_REDIS_URL)", () => {
  let other: TestApp;
  let otherUrl: string;
  beforeAll(async () => {
    other = await createTestApp({
      database: t.database,
      clock,
      config: { jwtSecret: t.config.jwtSecret, jwtRefreshSecret: t.config.jwtRefreshSecret },
    });
    otherUrl = await listen(other);
  });
  afterAll(() => other.close());

  it("logout through one process drops the user's socket on the other", async () => {
    const user = await makeUser(t);
    const session = await login(t, user);
    const closed = disconnection(await clients.connect(otherUrl, session.token));
    expect((await logout(t, session.refresh)).statusCode).toBe(200);
    expect(await closed).toBe("io server disconnect");
  });

  it("a password change through one process drops the user's other sessions' sockets on the other", async () => {
    const user = await makeUser(t);
    const elsewhere = await login(t, user);
    const closed = disconnection(await clients.connect(otherUrl, elsewhere.token));
    const here = await clients.connect(otherUrl, user.token);
    expect((await changePassword(t, user, user.id)).statusCode).toBe(200);
    expect(await closed).toBe("io server disconnect");
    // The session that changed it stays (issue 22 §5), on the other process too.
    expect(here.connected).toBe(true);
  });
});
