import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { countStatements, statementsOf } from "../../../test/statements.js";
import type { Database } from "../../db/client.js";
import { AUTH_USER_CHANNEL } from "./session-users.js";

// Issue 24 item 5: the signed-in user is not looked up again while its token is valid and nothing
// it depends on changed; any change applies on the very next request, in this process and in
// another one on the same database (the triggers of migration 0041 and a LISTEN in each process).
// "At once" is once the database's notice has arrived, a fraction of a millisecond after the commit
// (the same moment the writer learns of it): each change below waits for the notice to reach a
// connection of the test's own, as the apps' do, then asks each app once.
let a: TestApp;
let b: TestApp;
let admin: TestUser;
let notices: pg.Client;
const waiting: Array<{ payload: string; heard(): void }> = [];

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({
    database: a.database,
    config: { jwtSecret: a.config.jwtSecret, jwtRefreshSecret: a.config.jwtRefreshSecret },
  });
  admin = await makeAdmin(a);
  notices = new pg.Client({ connectionString: (a.database as Database & { url: string }).url });
  await notices.connect();
  await notices.query(`listen ${AUTH_USER_CHANNEL}`);
  notices.on("notification", ({ payload }) => {
    for (const waiter of waiting.splice(0)) waiter.payload === payload ? waiter.heard() : waiting.push(waiter);
  });
  countStatements();
});
afterAll(async () => {
  await notices.end();
  await b.close();
  await a.close();
});

/** A request of `user` on `app`: its status, and how many times it looked its user up. */
async function ask(app: TestApp, user: { auth: { authorization: string } }, url = "/api/sessions") {
  // Awaited inside: inject's answer is a thenable that starts the request when awaited.
  const { result, statements } = await statementsOf(async () => await app.app.inject({ method: "GET", url, headers: user.auth }));
  return { status: result.statusCode, lookups: statements.filter((s) => s === "users_auth_session").length, body: result.body };
}

/**
 * Both apps have the user's lookup: a request on each runs no user statement. (A lookup running when
 * a notice about the user arrives, such as the one of its own creation, is not kept: ask again.)
 */
async function known(user: TestUser, url?: string) {
  for (const app of [a, b]) {
    for (let i = 0; i < 5 && (await ask(app, user, url)).lookups > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await ask(app, user, url)).toMatchObject({ status: 200, lookups: 0 });
  }
}

const as = (user: TestUser) => ({ headers: user.auth });

/** Make a change about `userId`, and wait for its notice (a moment more for the apps' own). */
async function change<T>(userId: number, write: () => Promise<T>): Promise<T> {
  const heard = new Promise<void>((resolve) => waiting.push({ payload: String(userId), heard: resolve }));
  const result = await write();
  await heard;
  await new Promise((resolve) => setTimeout(resolve, 20));
  return result;
}

describe("the signed-in user's lookup", () => {
  it("runs once; later requests with the same token run no user statement", async () => {
    const user = await makeUser(a);
    expect(await ask(a, user)).toMatchObject({ status: 200, lookups: 1 });
    expect(await ask(a, user)).toMatchObject({ status: 200, lookups: 0 });
    const again = await statementsOf(async () => await a.app.inject({ method: "GET", url: "/api/sessions", ...as(user) }));
    expect(again.statements.length).toBeGreaterThan(0);
    expect(again.statements.filter((s) => s.startsWith("users_"))).toEqual([]);
  });

  it("is forgotten at once by both processes on logout", async () => {
    const user = await makeUser(a);
    await known(user);
    const out = await change(user.id, () => a.app.inject({ method: "DELETE", url: "/api/auth/logout", ...as(user) }));
    expect(out.statusCode, out.body).toBe(200);
    expect(await ask(b, user)).toMatchObject({ status: 401, lookups: 1 });
    expect(await ask(a, user)).toMatchObject({ status: 401, lookups: 1 });
  });

  it("is forgotten when an admin ends every session of the user, or sets a new password", async () => {
    const user = await makeUser(a);
    await known(user);
    const ended = await change(user.id, () =>
      b.app.inject({ method: "DELETE", url: `/api/users/${user.id}/sessions`, ...as(admin) }),
    );
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await ask(a, user)).toMatchObject({ status: 401, lookups: 1 });
    expect(await ask(b, user)).toMatchObject({ status: 401, lookups: 1 });

    const again = { ...user, auth: { authorization: `Bearer ${await a.services.tokens.signAccess(user.id)}` } };
    await known(again);
    const changed = await change(user.id, () =>
      a.app.inject({ method: "PUT", url: `/api/users/${user.id}`, ...as(admin), payload: { password: "a-new-password-1" } }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await ask(b, again)).toMatchObject({ status: 401, lookups: 1 });
    expect(await ask(a, again)).toMatchObject({ status: 401, lookups: 1 });
  });

  it("is forgotten when the user is deleted", async () => {
    const user = await makeUser(a);
    await known(user);
    const deleted = await change(user.id, () => a.app.inject({ method: "DELETE", url: `/api/users/${user.id}`, ...as(admin) }));
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await ask(b, user)).toMatchObject({ status: 401, lookups: 1 });
    expect(await ask(a, user)).toMatchObject({ status: 401, lookups: 1 });
  });

  it("is forgotten on a role change, by a route or by hand in the database", async () => {
    const boss = await makeAdmin(a);
    await known(boss, "/api/audit");
    const demoted = await change(boss.id, () =>
      b.app.inject({ method: "PUT", url: `/api/users/${boss.id}`, ...as(admin), payload: { profile: "user" } }),
    );
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(await ask(a, boss, "/api/audit")).toMatchObject({ status: 403, lookups: 1 });
    expect(await ask(b, boss, "/api/audit")).toMatchObject({ status: 403, lookups: 1 });

    // psql, a script, a restore: no route of ours, the database says it all the same.
    await known(boss, "/api/sessions");
    await change(boss.id, () => a.database.query("update users set profile = 'admin' where id = $1", [boss.id]));
    expect(await ask(b, boss, "/api/audit")).toMatchObject({ status: 200, lookups: 1 });
    expect(await ask(a, boss, "/api/audit")).toMatchObject({ status: 200, lookups: 1 });
  });

  it("is forgotten when the user's queues change, or one of them is deleted", async () => {
    const [queue, other] = [await makeQueue(a), await makeQueue(a)];
    const agent = await makeUser(a, { queueIds: [queue.id, other.id] });
    const connection = await makeSimulatorConnection(a, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    await customerWrites(a, admin, connection.id, { from, body: "hello" });
    const ticket = (await listTickets(a, agent, { status: "pending" })).tickets.find((x) => x.contact.number === from)!;
    const chat = `/api/messages/${ticket.id}`;
    await known(agent, chat);

    const moved = await change(agent.id, () =>
      a.app.inject({ method: "PUT", url: `/api/users/${agent.id}`, ...as(admin), payload: { queueIds: [other.id] } }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await ask(b, agent, chat)).toMatchObject({ status: 404, lookups: 1 });
    expect(await ask(a, agent, chat)).toMatchObject({ status: 404, lookups: 1 });

    // A deleted queue takes its members' rows with it (a cascade): those fire the trigger too.
    await known(agent, "/api/sessions");
    const gone = await change(agent.id, () => b.app.inject({ method: "DELETE", url: `/api/queue/${other.id}`, ...as(admin) }));
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await ask(a, agent)).toMatchObject({ status: 200, lookups: 1 });
    expect(await ask(b, agent)).toMatchObject({ status: 200, lookups: 1 });
    const [row] = await a.database.query<{ n: number }>("select count(*)::int as n from user_queues where user_id = $1", [
      agent.id,
    ]);
    expect(row?.n).toBe(0);
  });

  it("applies a change made through this process to its very next request, without waiting for anything", async () => {
    const boss = await makeAdmin(a);
    await known(boss, "/api/audit");
    const demoted = await a.app.inject({
      method: "PUT",
      url: `/api/users/${boss.id}`,
      ...as(admin),
      payload: { profile: "user" },
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(await ask(a, boss, "/api/audit")).toMatchObject({ status: 403, lookups: 1 });

    const user = await makeUser(a);
    await known(user);
    const out = await a.app.inject({ method: "DELETE", url: "/api/auth/logout", ...as(user) });
    expect(out.statusCode, out.body).toBe(200);
    expect(await ask(a, user)).toMatchObject({ status: 401, lookups: 1 });
    // The write's probe is the process's own work: the writing request did not send it.
    const other = await makeUser(a);
    const { statements } = await statementsOf(
      async () => await a.app.inject({ method: "DELETE", url: "/api/auth/logout", ...as(other) }),
    );
    expect(statements.filter((s) => s.includes("pg_notify"))).toEqual([]);
  });

  it("keeps answering for a session whose 'last seen' is written (that write changes nothing it reads)", async () => {
    const user = await makeUser(a);
    await known(user);
    await a.database.query("update sessions set last_seen_at = now() where user_id = $1", [user.id]);
    expect(await ask(a, user)).toMatchObject({ status: 200, lookups: 0 });
    expect(await ask(b, user)).toMatchObject({ status: 200, lookups: 0 });
  });
});
