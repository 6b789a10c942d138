import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSimulatorConnection } from "../../../test/conversation.js";
import { login, makeAdmin, makeContact, makeQueue, makeUser, PASSWORD, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { REFRESH_COOKIE } from "../../http/auth.js";

// Issue 22 §4: the audit trail.
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

interface Row {
  id: string;
  user_id: number | null;
  user_name: string;
  user_email: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
  ip: string;
  user_agent: string;
}
const rowsOf = (action: string, targetId?: string | number) =>
  t.database.query<Row>(
    `select * from audit_log where action = $1 ${targetId === undefined ? "" : "and target_id = $2"} order by id`,
    targetId === undefined ? [action] : [action, String(targetId)],
  );
const audit = (who: TestUser, query: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url: "/api/audit", headers: who.auth, query });

describe("what the audit trail records", () => {
  it("sign-ins, failures with the attempted email (never the password) and logout, with address and browser", async () => {
    const user = await makeUser(t);
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: "10.22.0.1",
      headers: { "user-agent": "AuditBrowser/1.0" },
      payload: { email: user.email, password: PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
    const [signIn] = await rowsOf("auth.login", user.id);
    expect(signIn).toMatchObject({
      user_id: user.id,
      user_name: user.name,
      user_email: user.email,
      target_type: "user",
      ip: "10.22.0.1",
      user_agent: "AuditBrowser/1.0",
    });

    const bad = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: "10.22.0.2",
      payload: { email: user.email, password: "wrong-guess-123" },
    });
    expect(bad.statusCode).toBe(401);
    const unknown = `nobody-${Date.now()}@zapdesk.test`;
    await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: "10.22.0.3",
      payload: { email: unknown, password: "x1234" },
    });
    const failures = await rowsOf("auth.loginFailed");
    const mine = failures.find((r) => r.ip === "10.22.0.2");
    expect(mine).toMatchObject({ user_id: null, target_id: String(user.id), details: { attemptedEmail: user.email } });
    expect(failures.find((r) => r.ip === "10.22.0.3")).toMatchObject({ target_id: null, details: { attemptedEmail: unknown } });
    const everything = JSON.stringify(await t.database.query("select * from audit_log"));
    expect(everything).not.toContain("wrong-guess-123");
    expect(everything).not.toContain(PASSWORD);

    const refresh = ok.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    await t.app.inject({ method: "DELETE", url: "/api/auth/logout", cookies: { [REFRESH_COOKIE]: refresh } });
    const [logout] = (await rowsOf("auth.logout")).filter((r) => r.user_id === user.id);
    expect(logout).toMatchObject({ user_name: user.name, target_type: "session" });
  });

  it("a settings change, with its old and new values, in the change's transaction; an API token rotation without the token", async () => {
    const before = await t.database.query<{ value: string }>("select value from settings where key = 'userCreation'");
    const to = before[0]!.value === "enabled" ? "disabled" : "enabled";
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/settings/userCreation",
      headers: { ...admin.auth, "user-agent": "SettingsBrowser" },
      payload: { value: to },
    });
    expect(res.statusCode).toBe(200);
    const rows = await rowsOf("setting.changed", "userCreation");
    expect(rows.at(-1)).toMatchObject({
      user_id: admin.id,
      user_name: admin.name,
      user_email: admin.email,
      target_type: "setting",
      details: { from: before[0]!.value, to },
      user_agent: "SettingsBrowser",
    });
    // A refused change (not valid) leaves nothing.
    const count = rows.length;
    const refused = await t.app.inject({
      method: "PUT",
      url: "/api/settings/userCreation",
      headers: admin.auth,
      payload: { value: "maybe" },
    });
    expect(refused.statusCode).toBe(400);
    expect(await rowsOf("setting.changed", "userCreation")).toHaveLength(count);

    const rotated = await t.app.inject({ method: "POST", url: "/api/settings/userApiToken/rotate", headers: admin.auth });
    expect(rotated.statusCode).toBe(200);
    const token = (await t.database.query<{ value: string }>("select value from settings where key = 'userApiToken'"))[0]!.value;
    const [row] = await rowsOf("apiToken.rotated");
    expect(row).toMatchObject({ user_id: admin.id, target_id: "userApiToken" });
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("deletions of tickets, contacts and queues, and queue changes", async () => {
    const connection = await makeSimulatorConnection(t, admin, { isDefault: true });
    const contact = await makeContact(t);
    const ticket = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: admin.auth,
      payload: { contactId: contact.id, userId: admin.id, status: "open", whatsappId: connection.id },
    });
    expect(ticket.statusCode).toBe(200);
    const ticketId = ticket.json().id as number;
    const note = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: admin.auth,
      payload: { body: "internal note", isNote: true },
    });
    expect(note.statusCode).toBe(201);
    const noteId = note.json().id as string | number;
    expect((await t.app.inject({ method: "DELETE", url: `/api/messages/${noteId}`, headers: admin.auth })).statusCode).toBe(200);
    expect(await rowsOf("message.deleted", noteId)).toEqual([
      expect.objectContaining({ user_id: admin.id, target_type: "message", details: { ticketId, note: true } }),
    ]);
    expect((await t.app.inject({ method: "DELETE", url: `/api/tickets/${ticketId}`, headers: admin.auth })).statusCode).toBe(200);
    expect(await rowsOf("ticket.deleted", ticketId)).toEqual([
      expect.objectContaining({
        user_id: admin.id,
        target_type: "ticket",
        details: expect.objectContaining({ contactId: contact.id }),
      }),
    ]);

    expect((await t.app.inject({ method: "DELETE", url: `/api/contacts/${contact.id}`, headers: admin.auth })).statusCode).toBe(
      200,
    );
    const [deleted] = await rowsOf("contact.deleted", contact.id);
    expect(deleted).toMatchObject({ user_id: admin.id, target_type: "contact" });
    // The trail outlives the contact: no name or number of the customer in it.
    expect(JSON.stringify(deleted)).not.toContain(contact.number);

    const queue = await makeQueue(t);
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/api/queue/${queue.id}`,
      headers: admin.auth,
      payload: { name: `Renamed ${Date.now()}` },
    });
    expect(renamed.statusCode).toBe(200);
    expect(await rowsOf("queue.updated", queue.id)).toHaveLength(1);
    expect((await t.app.inject({ method: "DELETE", url: `/api/queue/${queue.id}`, headers: admin.auth })).statusCode).toBe(200);
    expect(await rowsOf("queue.deleted", queue.id)).toHaveLength(1);
  });

  it("a deleted user's rows survive with the name and email they had", async () => {
    const user = await makeUser(t);
    await login(t, user);
    const del = await t.app.inject({ method: "DELETE", url: `/api/users/${user.id}`, headers: admin.auth });
    expect(del.statusCode).toBe(200);
    expect(await t.database.query("select id from users where id = $1", [user.id])).toHaveLength(0);
    const [signIn] = await rowsOf("auth.login", user.id);
    expect(signIn).toMatchObject({ user_id: user.id, user_name: user.name, user_email: user.email });
    const [removal] = await rowsOf("user.deleted", user.id);
    expect(removal).toMatchObject({ user_id: admin.id, details: { name: user.name, email: user.email, profile: "user" } });
    // And the screen still finds them by that user.
    const listed = await audit(admin, { userId: String(user.id) });
    expect(listed.json().entries.map((e: { action: string }) => e.action)).toContain("auth.login");
  });

  it("a profile change and a password change of a user", async () => {
    const user = await makeUser(t);
    await t.app.inject({
      method: "PUT",
      url: `/api/users/${user.id}`,
      headers: admin.auth,
      payload: { profile: "admin", password: "brand-new-pass" },
    });
    const [updated] = await rowsOf("user.updated", user.id);
    expect(updated!.details).toEqual({ profile: { from: "user", to: "admin" } });
    const [password] = await rowsOf("user.passwordChanged", user.id);
    expect(password).toMatchObject({ user_id: admin.id, details: { self: false } });
    expect(JSON.stringify(password)).not.toContain("brand-new-pass");
  });
});

describe("backups", () => {
  it("a backup made and downloaded is recorded", async () => {
    const made = await t.app.inject({ method: "POST", url: "/api/backups", headers: admin.auth });
    expect(made.statusCode).toBe(201);
    const name = made.json().name as string;
    expect(await rowsOf("backup.created", name)).toEqual([expect.objectContaining({ user_id: admin.id })]);
    const got = await t.app.inject({ method: "GET", url: `/api/backups/${name}`, headers: admin.auth });
    expect(got.statusCode).toBe(200);
    expect(await rowsOf("backup.downloaded", name)).toEqual([expect.objectContaining({ user_id: admin.id })]);
  });
});

describe("the database keeps it append-only", () => {
  it("refuses UPDATE, DELETE and TRUNCATE of audit_log", async () => {
    const [row] = await t.database.query<{ id: string }>("select id from audit_log limit 1");
    expect(row).toBeTruthy();
    await expect(t.database.query("update audit_log set action = 'x' where id = $1", [row!.id])).rejects.toThrow(/append-only/);
    await expect(t.database.query("delete from audit_log where id = $1", [row!.id])).rejects.toThrow(/append-only/);
    await expect(t.database.query("truncate audit_log")).rejects.toThrow(/append-only/);
    expect(await t.database.query("select id from audit_log where id = $1", [row!.id])).toHaveLength(1);
  });
});

describe("GET /api/audit and its CSV export", () => {
  it("is for admins only", async () => {
    const agent = await makeUser(t);
    const res = await audit(agent);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
    expect((await t.app.inject({ method: "GET", url: "/api/audit/export", headers: agent.auth })).statusCode).toBe(403);
  });

  it("filters by user, action, target and dates, and pages by keyset", async () => {
    const queues = [];
    for (let i = 0; i < 5; i++)
      queues.push(
        await t.app.inject({
          method: "POST",
          url: "/api/queue",
          headers: admin.auth,
          payload: { name: `Audited ${Date.now()}-${i}`, color: `#0${i}AB${i}C` },
        }),
      );
    expect(queues.every((q) => q.statusCode === 200)).toBe(true);
    const first = await audit(admin, { action: "queue.created", userId: String(admin.id), limit: "2" });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.entries).toHaveLength(2);
    expect(
      page1.entries.every((e: { action: string; userId: number }) => e.action === "queue.created" && e.userId === admin.id),
    ).toBe(true);
    expect(page1.nextBefore).toBe(page1.entries[1].id);
    const page2 = (await audit(admin, { action: "queue.created", limit: "2", before: String(page1.nextBefore) })).json();
    expect(page2.entries[0].id).toBeLessThan(page1.entries[1].id);

    const lastQueue = queues.at(-1)!.json().id as number;
    const byTarget = (await audit(admin, { targetType: "queue", targetId: String(lastQueue) })).json();
    expect(byTarget.entries).toEqual([expect.objectContaining({ action: "queue.created", targetId: String(lastQueue) })]);

    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await audit(admin, { from: future })).json().entries).toEqual([]);
    const past = new Date(Date.now() - 3600_000).toISOString();
    expect(
      (await audit(admin, { from: past, to: future, action: "queue.created" })).json().entries.length,
    ).toBeGreaterThanOrEqual(5);

    const backwards = await audit(admin, { from: future, to: past });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error).toBe("ERR_AUDIT_RANGE");
    const unknownAction = await audit(admin, { action: "nope" });
    expect(unknownAction.statusCode).toBe(400);
    expect(unknownAction.json().error).toBe("ERR_VALIDATION");
  });

  it("exports the filtered entries as CSV, and records the export", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/audit/export",
      headers: admin.auth,
      query: { action: "queue.created" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["content-disposition"]).toMatch(/attachment; filename="audit-/);
    const lines = res.body.trim().split("\n");
    expect(lines[0]).toBe("id,createdAt,userId,userName,userEmail,action,targetType,targetId,ip,userAgent,details");
    expect(lines.length).toBeGreaterThanOrEqual(6);
    expect(lines.slice(1).every((l) => l.includes(",queue.created,"))).toBe(true);
    expect((await rowsOf("audit.exported")).at(-1)).toMatchObject({
      user_id: admin.id,
      details: { filter: { action: "queue.created" } },
    });
    const bad = await t.app.inject({
      method: "GET",
      url: "/api/audit/export",
      headers: admin.auth,
      query: { from: new Date().toISOString(), to: new Date(Date.now() - 1000).toISOString() },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("OpenAPI", () => {
  it("describes the audit and session routes", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    for (const path of ["/api/audit", "/api/audit/export", "/api/sessions", "/api/sessions/{id}", "/api/users/{id}/sessions"]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths["/api/audit"].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["userId", "action", "targetType", "targetId", "from", "to", "before", "limit"]),
    );
  });
});
