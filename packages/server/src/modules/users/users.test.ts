import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { ADMIN, createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  agent = await makeUser(t);
});
afterAll(() => t.close());

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who?: { auth: { authorization: string } }, payload?: object) =>
  t.app.inject({ method, url, headers: who?.auth, payload });

describe("GET /api/users", () => {
  it("pages by 20 with count and hasMore, searching name and email case-insensitively", async () => {
    const tag = `pg${randomBytes(3).toString("hex")}`;
    for (let i = 0; i < 21; i++) await makeUser(t, { name: `${tag.toUpperCase()} ${String(i).padStart(2, "0")}` });
    await makeUser(t, { name: "Someone Else", email: `${tag}-mail@zapdesk.test` });

    const first = await call("GET", `/api/users?searchParam=${tag}`, agent);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ count: 22, hasMore: true });
    expect(first.json().users).toHaveLength(20);
    const second = await call("GET", `/api/users?searchParam=${tag}&pageNumber=2`, agent);
    expect(second.json()).toMatchObject({ count: 22, hasMore: false });
    expect(second.json().users).toHaveLength(2);
    const ids = [...first.json().users, ...second.json().users].map((u: { id: number }) => u.id);
    expect(new Set(ids).size).toBe(22);

    const byEmail = await call("GET", `/api/users?searchParam=${tag}-MAIL`, agent);
    expect(byEmail.json().users.map((u: { name: string }) => u.name)).toEqual(["Someone Else"]);
    // LIKE wildcards are searched literally.
    expect((await call("GET", "/api/users?searchParam=%25%25%25", agent)).json().count).toBe(0);
  });

  it("validates the query and needs a session", async () => {
    const bad = await call("GET", "/api/users?pageNumber=0", agent);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toEqual(["pageNumber"]);
    expect((await call("GET", "/api/users")).statusCode).toBe(401);
  });
});

describe("GET /api/users/:id", () => {
  it("returns the user with queues and never a password", async () => {
    const queue = await makeQueue(t);
    const user = await makeUser(t, { queueIds: [queue.id] });
    const res = await call("GET", `/api/users/${user.id}`, agent);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: user.id,
      name: user.name,
      email: user.email,
      profile: "user",
      queues: [{ id: queue.id, name: queue.name, color: queue.color }],
      createdAt: expect.any(String),
    });
  });

  it("answers ERR_NO_USER_FOUND, 400 for a bad id and 401 without session", async () => {
    const missing = await call("GET", "/api/users/999999", admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("ERR_NO_USER_FOUND");
    const bad = await call("GET", "/api/users/abc", admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toEqual(["id"]);
    expect((await call("GET", `/api/users/${agent.id}`)).statusCode).toBe(401);
  });
});

describe("POST /api/users", () => {
  it("lets an admin create a user with queues who can then sign in", async () => {
    const q1 = await makeQueue(t);
    const q2 = await makeQueue(t);
    const email = `created-${randomBytes(3).toString("hex")}@zapdesk.test`;
    const res = await call("POST", "/api/users", admin, {
      name: "  Created Agent ",
      email: email.toUpperCase(),
      password: "secret1",
      queueIds: [q1.id, q2.id, q1.id],
    });
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({ name: "Created Agent", email, profile: "user" });
    expect(user.queues.map((q: { id: number }) => q.id).sort()).toEqual([q1.id, q2.id].sort());
    expect((await login(t, { email, password: "secret1" })).token).toBeTruthy();
  });

  it("lets an admin create another admin", async () => {
    const res = await call("POST", "/api/users", admin, {
      name: "Second Admin",
      email: `admin2-${randomBytes(3).toString("hex")}@zapdesk.test`,
      password: "secret1",
      profile: "admin",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().profile).toBe("admin");
  });

  it("validates with field paths", async () => {
    const res = await call("POST", "/api/users", admin, { name: "X", email: "nope", password: "1", profile: "root" });
    expect(res.statusCode).toBe(400);
    const paths = res.json().details.map((d: { path: string[] }) => d.path[0]);
    expect(paths).toEqual(expect.arrayContaining(["name", "email", "password", "profile"]));
    const long = await call("POST", "/api/users", admin, { name: "N".repeat(51), email: "a@b.co", password: "secret" });
    expect(long.json().details).toEqual([{ path: ["name"], message: "Too Long!" }]);
  });

  it("needs a password: an empty or missing one is Required, like the form says", async () => {
    for (const password of [undefined, ""]) {
      const res = await call("POST", "/api/users", admin, { name: "No Pass", email: "nopass@zapdesk.test", password });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ path: ["password"], message: "Required" }]);
    }
  });

  it("refuses a taken email and an unknown queue on their fields", async () => {
    const taken = await call("POST", "/api/users", admin, { name: "Dup", email: agent.email.toUpperCase(), password: "secret" });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().details[0].path).toEqual(["email"]);
    const queue = await call("POST", "/api/users", admin, {
      name: "Queued",
      email: `q-${randomBytes(3).toString("hex")}@zapdesk.test`,
      password: "secret",
      queueIds: [999999],
    });
    expect(queue.statusCode).toBe(400);
    expect(queue.json().details[0].path).toEqual(["queueIds"]);
  });

  it("is admin-only", async () => {
    const payload = { name: "Agent Made", email: `x-${randomBytes(3).toString("hex")}@zapdesk.test`, password: "secret" };
    const res = await call("POST", "/api/users", agent, payload);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
    expect((await call("POST", "/api/users", undefined, payload)).statusCode).toBe(401);
  });
});

describe("PUT /api/users/:id", () => {
  it("lets an admin change anyone's name, email, profile and queues", async () => {
    const user = await makeUser(t);
    const queue = await makeQueue(t);
    const email = `moved-${randomBytes(3).toString("hex")}@zapdesk.test`;
    const res = await call("PUT", `/api/users/${user.id}`, admin, {
      name: "Moved",
      email,
      profile: "admin",
      queueIds: [queue.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Moved", email, profile: "admin", queues: [{ id: queue.id }] });
    const cleared = await call("PUT", `/api/users/${user.id}`, admin, { queueIds: [] });
    expect(cleared.json().queues).toEqual([]);
  });

  it("lets agents edit their own name, email and password only", async () => {
    const queue = await makeQueue(t);
    const self = await makeUser(t, { queueIds: [queue.id] });
    const ok = await call("PUT", `/api/users/${self.id}`, self, { name: "Myself", password: "newpass" });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().name).toBe("Myself");
    // The form sends profile and queues back unchanged: that is fine.
    const same = await call("PUT", `/api/users/${self.id}`, self, { profile: "user", queueIds: [queue.id] });
    expect(same.statusCode).toBe(200);

    for (const payload of [{ profile: "admin" }, { queueIds: [] }, { queueIds: [queue.id, (await makeQueue(t)).id] }]) {
      const res = await call("PUT", `/api/users/${self.id}`, self, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
    const stored = (await call("GET", `/api/users/${self.id}`, admin)).json();
    expect(stored).toMatchObject({ profile: "user", queues: [{ id: queue.id }] });

    const other = await call("PUT", `/api/users/${agent.id}`, self, { name: "Hijack" });
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe("ERR_NO_PERMISSION");
    expect((await call("GET", `/api/users/${agent.id}`, admin)).json().name).not.toBe("Hijack");
  });

  it("answers ERR_NO_USER_FOUND, validates, and refuses a taken email", async () => {
    const missing = await call("PUT", "/api/users/999999", admin, { name: "Ghost" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("ERR_NO_USER_FOUND");
    const user = await makeUser(t);
    const invalid = await call("PUT", `/api/users/${user.id}`, admin, { email: "x", password: "123" });
    expect(invalid.statusCode).toBe(400);
    expect(
      invalid
        .json()
        .details.map((d: { path: string[] }) => d.path[0])
        .sort(),
    ).toEqual(["email", "password"]);
    const taken = await call("PUT", `/api/users/${user.id}`, admin, { email: agent.email });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().details[0].path).toEqual(["email"]);
    const unknownQueue = await call("PUT", `/api/users/${user.id}`, admin, { queueIds: [999999] });
    expect(unknownQueue.json().details[0].path).toEqual(["queueIds"]);
    expect((await call("PUT", `/api/users/${user.id}`, undefined, { name: "Anon" })).statusCode).toBe(401);
  });

  it("keeps the password when an empty one is sent", async () => {
    const user = await makeUser(t);
    const res = await call("PUT", `/api/users/${user.id}`, admin, { name: "Same Pass", password: "" });
    expect(res.statusCode).toBe(200);
    expect((await login(t, user)).token).toBeTruthy();
  });
});

describe("DELETE /api/users/:id", () => {
  it("lets an admin delete a user; agents may not", async () => {
    const user = await makeUser(t);
    const forbidden = await call("DELETE", `/api/users/${user.id}`, agent);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe("ERR_NO_PERMISSION");
    expect((await call("DELETE", `/api/users/${user.id}`)).statusCode).toBe(401);
    const res = await call("DELETE", `/api/users/${user.id}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toEqual(expect.any(String));
    expect((await call("GET", `/api/users/${user.id}`, admin)).json().error).toBe("ERR_NO_USER_FOUND");
    const again = await call("DELETE", `/api/users/${user.id}`, admin);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe("ERR_NO_USER_FOUND");
  });
});

describe("the last administrator", () => {
  let solo: TestApp;
  beforeAll(async () => {
    solo = await createTestApp();
  });
  afterAll(() => solo.close());

  it("can be neither deleted nor demoted until another admin exists", async () => {
    const [{ id }] = await solo.database.query<{ id: number }>("select id from users where email = $1", [ADMIN.email]);
    const auth = { authorization: `Bearer ${await solo.services.tokens.signAccess(id)}` };
    // Themself included: the only admin can neither delete nor demote their own account.
    const del = await solo.app.inject({ method: "DELETE", url: `/api/users/${id}`, headers: auth });
    expect(del.statusCode).toBe(409);
    expect(del.json().error).toBe("ERR_LAST_ADMIN");
    const demote = await solo.app.inject({ method: "PUT", url: `/api/users/${id}`, headers: auth, payload: { profile: "user" } });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error).toBe("ERR_LAST_ADMIN");
    expect((await solo.app.inject({ method: "GET", url: `/api/users/${id}`, headers: auth })).json().profile).toBe("admin");

    const second = await makeAdmin(solo);
    const nowOk = await solo.app.inject({ method: "PUT", url: `/api/users/${id}`, headers: auth, payload: { profile: "user" } });
    expect(nowOk.statusCode).toBe(200);
    expect(nowOk.json().profile).toBe("user");
    // `second` is the last admin now.
    const last = await solo.app.inject({ method: "DELETE", url: `/api/users/${second.id}`, headers: second.auth });
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toBe("ERR_LAST_ADMIN");
    const removeOld = await solo.app.inject({ method: "DELETE", url: `/api/users/${id}`, headers: second.auth });
    expect(removeOld.statusCode).toBe(200);
  });

  it("survives two admins removing each other at the same time", async () => {
    const a = await makeAdmin(solo);
    const b = await makeAdmin(solo);
    const admins = async () =>
      (await solo.database.query<{ id: number }>("select id from users where lower(profile) = 'admin'")).map((r) => r.id);
    // Leave exactly these two admins.
    for (const id of await admins()) {
      if (id !== a.id && id !== b.id) {
        expect((await solo.app.inject({ method: "DELETE", url: `/api/users/${id}`, headers: a.auth })).statusCode).toBe(200);
      }
    }
    const [x, y] = await Promise.all([
      solo.app.inject({ method: "DELETE", url: `/api/users/${b.id}`, headers: a.auth }),
      solo.app.inject({ method: "DELETE", url: `/api/users/${a.id}`, headers: b.auth }),
    ]);
    // The loser is refused: 409 by the last-admin rule, or 401 when its own deletion landed first.
    const [won, lost] = [x.statusCode, y.statusCode].sort();
    expect(won).toBe(200);
    expect([401, 409]).toContain(lost);
    expect((await admins()).length).toBe(1);

    const c = await makeAdmin(solo);
    const [survivor] = await admins().then((ids) => ids.filter((id) => id !== c.id));
    const survivorAuth = { authorization: `Bearer ${await solo.services.tokens.signAccess(survivor)}` };
    await Promise.all([
      solo.app.inject({ method: "PUT", url: `/api/users/${c.id}`, headers: survivorAuth, payload: { profile: "user" } }),
      solo.app.inject({ method: "PUT", url: `/api/users/${survivor}`, headers: c.auth, payload: { profile: "user" } }),
    ]);
    expect((await admins()).length).toBe(1);
  });
});
