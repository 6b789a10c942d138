import { randomUUID } from "node:crypto";
import { connect, createServer, type Socket } from "node:net";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../test/harness.js";
import { countStatements, statementsOf } from "../../../test/statements.js";
import { postgresTarget } from "../../../test/tcp-proxy.js";
import type { Db } from "../../db/client.js";
import * as schema from "../../db/schema.js";
import {
  AUTH_LISTENER_APPLICATION,
  AUTH_USER_CHANNEL,
  createSessionUsers,
  mayChangeUsers,
  type SessionUsers,
} from "./session-users.js";

// Issue 24 item 5: the cache of the signed-in users fails closed. Without its LISTEN connection it
// keeps nothing and looks every user up; it empties itself going down and coming back; a lookup
// that read the user before a change does not keep its answer.
let database: Awaited<ReturnType<typeof openTestDatabase>>;
const closing: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  database = await openTestDatabase();
  countStatements();
});
afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await database.close();
  await database.drop();
});

/** A user in a queue with a session, straight in the database. */
async function userWithSession(): Promise<{ userId: number; sessionId: string; queueId: number }> {
  const tag = randomUUID().slice(0, 8);
  const [user] = await database.query<{ id: number }>(
    "insert into users (name, email, password_hash, profile) values ($1, $2, 'x', 'user') returning id",
    [`User ${tag}`, `${tag}@zapdesk.test`],
  );
  const [queue] = await database.query<{ id: number }>("insert into queues (name, color) values ($1, $2) returning id", [
    `Queue ${tag}`,
    `#${tag.slice(0, 6)}`,
  ]);
  const sessionId = randomUUID();
  await database.query("insert into sessions (id, user_id) values ($1, $2)", [sessionId, user!.id]);
  await database.query("insert into user_queues (user_id, queue_id) values ($1, $2)", [user!.id, queue!.id]);
  // Those inserts' notices reach a cache a moment later (a lookup running then would not be kept):
  // a test with a cache waits for them (`heard`).
  return { userId: user!.id, sessionId, queueId: queue!.id };
}

function started(users: SessionUsers): SessionUsers {
  closing.push(() => users.close());
  return users;
}

type CacheDatabase = { query: typeof database.query; newClient(name: string): pg.Client };

/**
 * The database a cache is given, with the LISTEN client it opens kept (the latest, after a
 * reconnection): `heard()` resolves once the cache has heard every notice committed before the call.
 * A marker sent after them comes back after them on that client, whose own handler (the cache's,
 * added first) has run by then. Only while the cache listens.
 */
function tapped(base: CacheDatabase = database) {
  let listener: pg.Client | undefined;
  return {
    database: { query: base.query, newClient: (name: string) => (listener = base.newClient(name)) } as CacheDatabase,
    async heard(): Promise<void> {
      const client = listener;
      if (!client) throw new Error("the cache opened no LISTEN client");
      // A probe's form: the cache ignores a probe it did not send (any other text would empty it).
      const marker = `probe:test-${randomUUID()}`;
      let done = false;
      const seen = (notice: pg.Notification) => {
        done ||= notice.payload === marker;
      };
      client.on("notification", seen);
      try {
        await database.query("select pg_notify($1, $2)", [AUTH_USER_CHANNEL, marker]);
        await until(() => done, "the cache's connection to hear a marker", 10_000);
      } finally {
        client.off("notification", seen);
      }
    },
  };
}

/** Started, and on: `start` waits a bounded time only, which a busy machine can outlast. */
async function listening(users: SessionUsers): Promise<void> {
  await users.start();
  await until(() => users.listening, "the cache to come on");
}

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const lookupsOf = async (work: () => Promise<unknown>) =>
  (await statementsOf(work)).statements.filter((s) => s === "users_auth_session").length;

/** A TCP relay to PostgreSQL that can hold back what the server sends (a slow or deaf connection). */
async function holdingRelay() {
  const { target, via } = postgresTarget(database.url);
  let holding = false;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = "path" in target ? connect(target.path) : connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream);
    upstream.on("data", (chunk: Buffer) => (holding ? held.push(() => client.write(chunk)) : client.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = via((server.address() as { port: number }).port);
  closing.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const write of held.splice(0)) write();
    },
    get held() {
      return held.length;
    },
  };
}

describe("the signed-in users' cache", () => {
  it("keeps nothing while its LISTEN connection is down, and starts empty when it is back", async () => {
    const tap = tapped();
    const users = started(createSessionUsers({ db: database.db, database: tap.database }));
    await listening(users);
    const { userId, sessionId } = await userWithSession();
    await tap.heard();
    expect(await lookupsOf(() => users.find(userId, sessionId))).toBe(1);
    expect(await lookupsOf(() => users.find(userId, sessionId))).toBe(0);

    await database.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()",
      [AUTH_LISTENER_APPLICATION],
    );
    await until(() => !users.listening, "the cache to notice");
    expect(users.size).toBe(0);
    // Down: every request looks its user up, keeps nothing, and sees a change at once.
    expect(await lookupsOf(() => users.find(userId, sessionId))).toBe(1);
    await database.query("update users set profile = 'admin' where id = $1", [userId]);
    const { result, statements } = await statementsOf(() => users.find(userId, sessionId));
    expect(statements).toEqual(["users_auth_session"]);
    expect(result?.profile).toBe("admin");
    expect(users.size).toBe(0);

    await until(() => users.listening, "the LISTEN connection to come back");
    const [row] = await database.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()",
      [AUTH_LISTENER_APPLICATION],
    );
    expect(row?.n).toBe(1);
    expect(users.size).toBe(0);
    expect(await lookupsOf(() => users.find(userId, sessionId))).toBe(1);
    expect(await lookupsOf(() => users.find(userId, sessionId))).toBe(0);
    await database.query("delete from sessions where id = $1", [sessionId]);
    await tap.heard(); // the notice's way
    expect(await users.find(userId, sessionId)).toBeUndefined();
  });

  it("does not keep an answer read before a change whose notice came while it was on its way", async () => {
    const relay = await holdingRelay();
    const pool = new pg.Pool({ connectionString: relay.url, max: 1 });
    closing.push(() => pool.end());
    const tap = tapped();
    const users = started(createSessionUsers({ db: drizzle(pool, { schema }) as unknown as Db, database: tap.database }));
    await listening(users);
    const { userId, sessionId, queueId } = await userWithSession();
    await tap.heard();
    const other = randomUUID();
    await database.query("insert into sessions (id, user_id) values ($1, $2)", [other, userId]);
    await users.find(userId, other); // prepared on the pool's one connection

    const notices = new pg.Client({ connectionString: database.url });
    await notices.connect();
    closing.push(() => notices.end());
    await notices.query(`listen ${AUTH_USER_CHANNEL}`);
    const heard = new Promise<void>((resolve) => notices.on("notification", (n) => n.payload === String(userId) && resolve()));

    relay.hold();
    const pending = users.find(userId, sessionId);
    await until(() => relay.held > 0, "the lookup's answer");
    await database.query("delete from user_queues where user_id = $1", [userId]);
    await heard;
    await tap.heard(); // the cache's own connection has it too
    relay.release();
    expect((await pending)?.queueIds).toEqual([queueId]); // what was true when it was read

    const { result, statements } = await statementsOf(() => users.find(userId, sessionId));
    expect(statements).toEqual(["users_auth_session"]);
    expect(result?.queueIds).toEqual([]);
  });

  it("after a write of this process, answers from the cache only once that write's notices are in", async () => {
    const relay = await holdingRelay();
    const slow = {
      query: database.query,
      newClient: (name: string) => new pg.Client({ connectionString: relay.url, application_name: name }),
    };
    const tap = tapped(slow);
    const users = started(createSessionUsers({ db: database.db, database: tap.database }));
    await listening(users);
    const { userId, sessionId } = await userWithSession();
    await tap.heard();
    await users.find(userId, sessionId);
    users.wrote(); // nothing changed: the probe comes back and the kept answer serves
    expect(await lookupsOf(() => users.find(userId, sessionId))).toBe(0);

    relay.hold(); // the notices are late
    await database.query("delete from sessions where id = $1", [sessionId]);
    users.wrote();
    const { result, statements } = await statementsOf(() => users.find(userId, sessionId));
    expect(statements).toEqual(["users_auth_session"]);
    expect(result).toBeUndefined();
    relay.release();
  });

  it("keeps an answer for its time to live at most, and its newest entries only", async () => {
    const tap = tapped();
    const users = started(createSessionUsers({ db: database.db, database: tap.database, ttlMs: 300, maxEntries: 2 }));
    await listening(users);
    const { userId, sessionId } = await userWithSession();
    const [second, third] = [randomUUID(), randomUUID()];
    for (const id of [second, third]) await database.query("insert into sessions (id, user_id) values ($1, $2)", [id, userId]);
    await tap.heard(); // those inserts' notices
    await users.find(userId, sessionId);
    await users.find(userId, second);
    expect(await lookupsOf(() => users.find(userId, sessionId))).toBe(0); // now the newest of the two
    await users.find(userId, third); // the oldest, `second`, makes room
    expect(users.size).toBe(2);
    expect(await lookupsOf(() => users.find(userId, second))).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await lookupsOf(() => users.find(userId, third))).toBe(1);
  });

  it("turns itself off when its connection stops hearing the database (no heartbeat back)", async () => {
    const relay = await holdingRelay();
    const tap = tapped({
      query: database.query,
      newClient: (name: string) => new pg.Client({ connectionString: relay.url, application_name: name }),
    });
    // A heartbeat a machine busy with the rest of the suite still answers in time (CI once missed
    // 200 ms before the cache came on): the probe's answer must come within one beat.
    const users = started(createSessionUsers({ db: database.db, database: tap.database, heartbeatMs: 1_000 }));
    await listening(users);
    const { userId, sessionId } = await userWithSession();
    await tap.heard();
    await users.find(userId, sessionId);
    expect(users.size).toBe(1);

    relay.hold(); // a half-open connection: no error, no notice
    // Missed within two beats (the next one, and its answer's wait), plus the machine's slack.
    await until(() => !users.listening, "the heartbeat to miss", 10_000);
    expect(users.size).toBe(0);
    relay.release();
    await until(() => users.listening, "the LISTEN connection to come back", 15_000);
  });
});

describe("which requests make the next ones wait for their notices", () => {
  const user = { id: 1 };
  it("a signed-in user's writes and the sign-in routes' do; reads and customers' messages do not", () => {
    expect(mayChangeUsers({ method: "PUT", url: "/api/users/7", user })).toBe(true);
    expect(mayChangeUsers({ method: "DELETE", url: "/api/sessions/abc", user })).toBe(true);
    // Logout and the refresh token's reuse end sessions without a signed-in user.
    expect(mayChangeUsers({ method: "DELETE", url: "/api/auth/logout", user: null })).toBe(true);
    expect(mayChangeUsers({ method: "POST", url: "/api/auth/refresh_token" })).toBe(true);
    expect(mayChangeUsers({ method: "GET", url: "/api/users", user })).toBe(false);
    expect(mayChangeUsers({ method: "POST", url: "/api/webhooks/cloud/3", user: null })).toBe(false);
    expect(mayChangeUsers({ method: "POST", url: "/api/messages/send" })).toBe(false);
    // A route that writes no user says so (the simulator's customer message).
    const config = { changesNoUser: true };
    expect(mayChangeUsers({ method: "POST", url: "/api/simulator/3/inbound", user, routeOptions: { config } })).toBe(false);
  });
});
