import { AsyncResource } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import type { Database, Db } from "../../db/client.js";
import { type AuthUser, findSessionUser } from "./users.repo.js";

/** Where the database says a user's lookup changed (migration 0041): the user's id, or '*' for all. */
export const AUTH_USER_CHANNEL = "zapdesk_auth_user";
/** The name of the LISTEN connection in pg_stat_activity. */
export const AUTH_LISTENER_APPLICATION = "zapdesk auth listener";

export const SESSION_USER_TTL_MS = 30_000;
export const SESSION_USER_MAX_ENTRIES = 10_000;
/** How often the LISTEN connection proves it still hears the database (a NOTIFY sent through the pool). */
export const LISTENER_HEARTBEAT_MS = 10_000;
/** How long a request waits for the notices of this process's last writes before looking its user up. */
const WRITE_BARRIER_MS = 1_000;
const START_WAIT_MS = 3_000;
const END_WAIT_MS = 1_000;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;

export interface SessionUsers {
  /** The user of a session, as `findSessionUser` answers it; kept while the database says nothing changed. */
  find(userId: number, sessionId: string): Promise<AuthUser | undefined>;
  /** Listen, and resolve once the first attempt has succeeded or failed (a failure retries in the background). */
  start(): Promise<void>;
  /**
   * A request of this process may have written (its answer is about to leave): the requests after
   * it wait, before a kept answer, until the notices of what it committed have arrived.
   */
  wrote(): void;
  /** Whether entries are kept and served now: only while the LISTEN connection is up and proven. */
  readonly listening: boolean;
  /** How many lookups are kept. */
  readonly size: number;
  close(): Promise<void>;
}

interface Entry {
  user: AuthUser;
  userId: number;
  expiresAt: number;
}

interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Issue 24 item 5: every authenticated request and socket needs its user, and the user rarely
 * changes. The lookup (users_auth_session) is kept per (user, session) and forgotten the moment the
 * database says the user's row, its sessions or its queues changed: triggers (migration 0041)
 * NOTIFY at commit whatever the writer (a route, the CLI, another process, a cascade, psql), and
 * each process LISTENs on a connection of its own. Fail closed:
 * - while that connection is not up and proven by a NOTIFY that came back through it (startup, a
 *   dropped connection, a pooler that does not carry notifications), nothing is kept or served: every
 *   request looks its user up, as before; going down and coming back both empty the cache;
 * - a lookup that was running when any notification arrived does not keep its answer (it may have
 *   read the row before the change): one generation counter, read before the query, compared after;
 * - a heartbeat NOTIFY sent through the pool every LISTENER_HEARTBEAT_MS must come back before the
 *   next, or the connection is taken as lost (a half-open socket says nothing otherwise);
 * - an entry lives SESSION_USER_TTL_MS at most, and at most SESSION_USER_MAX_ENTRIES are kept.
 * The access token's own expiry is checked before (tokens.verifyAccessSession); the sessions row
 * has none.
 *
 * A notice arrives a moment after its commit, on another connection than the writer's. So that a
 * change made through this process (logout, a new role) applies to the very next request even
 * then, every write request that may change a user (mayChangeUsers) sends, as its answer leaves, a
 * probe NOTIFY through the pool, in the background; notices arrive in commit order, so once the
 * probe is back every notice of that write has been applied, and a kept answer waits for it (one
 * probe serves every write before it). Another process's change applies as soon as its notice
 * arrives: in the time it takes PostgreSQL to tell both processes of the commit.
 */
export function createSessionUsers(deps: {
  db: Db;
  database: Pick<Database, "newClient" | "query">;
  logger?: Logger;
  ttlMs?: number;
  maxEntries?: number;
  heartbeatMs?: number;
}): SessionUsers {
  const ttlMs = deps.ttlMs ?? SESSION_USER_TTL_MS;
  const maxEntries = deps.maxEntries ?? SESSION_USER_MAX_ENTRIES;
  const heartbeatMs = deps.heartbeatMs ?? LISTENER_HEARTBEAT_MS;
  const entries = new Map<string, Entry>();
  const probes = new Map<string, () => void>();
  let generation = 0;
  let live = false;
  let closed = false;
  let client: pg.Client | null = null;
  let reconnectMs = RECONNECT_MIN_MS;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  // The write barrier: writes noted, writes whose notices are known to have arrived, the waiters.
  let written = 0;
  let heard = 0;
  let syncing = false;
  const waiters: Array<{ upTo: number; done(): void }> = [];
  // The probes of the barrier are the process's own work, not the writing request's.
  const background = new AsyncResource("zapdesk.session-users");

  const forgetAll = () => {
    generation++;
    entries.clear();
  };
  const forgetUser = (userId: number) => {
    generation++;
    for (const [key, entry] of entries) if (entry.userId === userId) entries.delete(key);
  };

  function onNotification(message: pg.Notification): void {
    if (message.channel !== AUTH_USER_CHANNEL) return;
    const payload = message.payload ?? "*";
    if (payload.startsWith("probe:")) return void probes.get(payload)?.();
    const userId = Number(payload);
    if (payload === "*" || !Number.isInteger(userId)) forgetAll();
    else forgetUser(userId);
  }

  /** A NOTIFY sent through the pool (as every writer's is) must come back on the listening connection. */
  function probe(): Promise<void> {
    const nonce = `probe:${randomUUID()}`;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        probes.delete(nonce);
        reject(new Error("the LISTEN connection did not hear its probe"));
      }, heartbeatMs);
      probes.set(nonce, () => {
        clearTimeout(timer);
        probes.delete(nonce);
        resolve();
      });
      deps.database.query("select pg_notify($1, $2)", [AUTH_USER_CHANNEL, nonce]).catch((error) => {
        clearTimeout(timer);
        probes.delete(nonce);
        reject(error);
      });
    });
  }

  function down(listener: pg.Client, error: unknown): Promise<void> {
    if (client !== listener) return Promise.resolve();
    client = null;
    const wasLive = live;
    live = false;
    forgetAll();
    settle();
    clearInterval(heartbeatTimer);
    listener.removeAllListeners("notification");
    // A connection stuck opening (a frozen server) may never confirm its end: not waited for long.
    const ended = Promise.race([listener.end().catch(() => {}), delay(END_WAIT_MS)]);
    if (closed) return ended;
    if (wasLive) deps.logger?.warn({ err: error }, "auth cache off: the LISTEN connection was lost");
    reconnectTimer = setTimeout(() => void connect(), reconnectMs);
    reconnectTimer.unref();
    reconnectMs = Math.min(reconnectMs * 2, RECONNECT_MAX_MS);
    return ended;
  }

  async function connect(): Promise<void> {
    if (closed || client) return;
    const listener = deps.database.newClient(AUTH_LISTENER_APPLICATION);
    client = listener;
    listener.on("error", (error) => void down(listener, error));
    listener.on("end", () => void down(listener, new Error("the LISTEN connection ended")));
    listener.on("notification", onNotification);
    try {
      await listener.connect();
      await listener.query(`listen ${AUTH_USER_CHANNEL}`);
      await probe();
    } catch (error) {
      void down(listener, error);
      return;
    }
    if (client !== listener || closed) return;
    // Whatever was kept before this connection heard anything may be stale.
    forgetAll();
    live = true;
    reconnectMs = RECONNECT_MIN_MS;
    deps.logger?.info({}, "auth cache on: listening for user changes");
    heartbeatTimer = setInterval(() => {
      probe().catch((error) => void down(listener, error));
    }, heartbeatMs);
    heartbeatTimer.unref();
  }

  function settle(): void {
    for (const waiter of waiters.splice(0))
      if (waiter.upTo <= heard || !live) waiter.done();
      else waiters.push(waiter);
  }

  async function sync(): Promise<void> {
    syncing = true;
    const listener = client;
    while (live && heard < written) {
      const upTo = written;
      try {
        await probe();
      } catch (error) {
        if (listener) void down(listener, error);
        break;
      }
      heard = upTo;
      settle();
    }
    syncing = false;
    settle();
  }

  /** Resolves true once the notices of this process's writes so far have arrived; false if not in time. */
  function caughtUp(): Promise<boolean> | true {
    if (heard >= written) return true;
    const upTo = written;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), WRITE_BARRIER_MS);
      waiters.push({
        upTo,
        done: () => {
          clearTimeout(timer);
          resolve(live);
        },
      });
    });
  }

  async function lookUp(userId: number, sessionId: string, key: string): Promise<AuthUser | undefined> {
    const before = generation;
    const user = await findSessionUser(deps.db, userId, sessionId);
    if (user && live && generation === before) {
      entries.delete(key);
      entries.set(key, { user, userId, expiresAt: Date.now() + ttlMs });
      // The oldest first: Map keeps insertion order, and a hit moves its entry to the end.
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    }
    return user && copy(user);
  }

  return {
    async find(userId, sessionId) {
      if (!live) return findSessionUser(deps.db, userId, sessionId);
      const key = `${userId}:${sessionId}`;
      const entry = entries.get(key);
      if (!entry) return lookUp(userId, sessionId, key);
      const ready = caughtUp();
      if (ready !== true && !(await ready)) return lookUp(userId, sessionId, key);
      if (!live || entries.get(key) !== entry || entry.expiresAt <= Date.now()) {
        if (entries.get(key) === entry) entries.delete(key);
        return lookUp(userId, sessionId, key);
      }
      entries.delete(key);
      entries.set(key, entry);
      return copy(entry.user);
    },
    // The first attempt is awaited (a test or a bench starts with the cache on), not for long.
    start: () => Promise.race([connect(), delay(START_WAIT_MS)]),
    wrote() {
      if (!live) return;
      written++;
      if (!syncing) background.runInAsyncScope(() => void sync());
    },
    get listening() {
      return live;
    },
    get size() {
      return entries.size;
    },
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      if (client) await down(client, new Error("closed"));
    },
  };
}

const delay = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route writes no user, session or queue membership: it sends the users' cache no write probe. */
    changesNoUser?: boolean;
  }
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request may have changed what a lookup reads (a user, its queues, its sessions), so that
 * the requests after it wait for its notices: a write by a signed-in user (an admin's change, a new
 * password, "end session"), or one of the sign-in routes, which run without one (logout, the refresh
 * token's reuse that ends every session). A customer's message through a Cloud webhook or an API
 * token's send changes no user, and costs no probe; nor does a route marked `config.changesNoUser`
 * (issue 24 item 1: the simulator's customer message, which writes contacts, tickets and messages only).
 */
export function mayChangeUsers(request: {
  method: string;
  url: string;
  user?: unknown;
  routeOptions?: { config?: { changesNoUser?: boolean } };
}): boolean {
  if (READS.has(request.method)) return false;
  if (request.routeOptions?.config?.changesNoUser) return false;
  return Boolean(request.user) || request.url.startsWith("/api/auth/");
}

/**
 * The app's cache of signed-in users: listening before `buildApp` goes on, told of every write
 * request as its answer leaves, closed with the app.
 */
export async function startSessionUsers(
  app: FastifyInstance,
  deps: Omit<Parameters<typeof createSessionUsers>[0], "logger">,
): Promise<SessionUsers> {
  const users = createSessionUsers({ ...deps, logger: app.log });
  app.addHook("onSend", (request, _reply, payload, done) => {
    if (mayChangeUsers(request)) users.wrote();
    done(null, payload);
  });
  app.addHook("onClose", () => users.close());
  await users.start();
  return users;
}

/** Each request gets its own copy: nothing a request does to its actor reaches the next one. */
const copy = (user: AuthUser): AuthUser => ({ ...user, queueIds: [...user.queueIds] });
