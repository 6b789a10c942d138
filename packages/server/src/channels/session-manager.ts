import type { ConnectionProvider, ConnectionStatus } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client.js";
import { whatsapps } from "../db/schema.js";
import { AppError } from "../lib/app-error.js";
import type {
  ChannelFactories,
  ChannelHandlers,
  ChannelSession,
  CloseReason,
  InboundCall,
  InboundMessage,
  MessageUpdate,
} from "./channel.js";
import { createSessionLease, type LeaseOptions, type SessionLease } from "./session-lease.js";

export interface InboundSink {
  onMessage(whatsappId: number, message: InboundMessage): Promise<void>;
  onUpdate(whatsappId: number, update: MessageUpdate): Promise<void>;
  onCall(whatsappId: number, call: InboundCall): Promise<void>;
}

export interface ConnectionState {
  status?: ConnectionStatus;
  qrcode?: string;
  retries?: number;
}

export interface SessionManagerDeps {
  db: Db;
  factories: ChannelFactories;
  logger: FastifyBaseLogger;
  sink: InboundSink;
  /** Persist and publish the connection's state (the connections service). */
  onState(whatsappId: number, state: ConnectionState): Promise<void>;
  backoff?: { initialMs: number; maxMs: number };
  /** Scaled out: own each connection through a DB lease (design §2). Absent: this process owns them all. */
  lease?: LeaseOptions;
}

export interface SessionManager {
  startAll(): Promise<void>;
  start(whatsappId: number): Promise<void>;
  requestNewQr(whatsappId: number): Promise<void>;
  disconnect(whatsappId: number): Promise<void>;
  remove(whatsappId: number): Promise<void>;
  /** The live, CONNECTED session; throws ERR_WAPP_NOT_INITIALIZED otherwise. */
  get(whatsappId: number): ChannelSession;
  isConnected(whatsappId: number): boolean;
  /** The provider of a connection this process manages, undefined when it does not know it. */
  provider(whatsappId: number): ConnectionProvider | undefined;
  /** The last status this process saw, undefined when it does not manage the connection. */
  status(whatsappId: number): ConnectionStatus | undefined;
  stopAll(): Promise<void>;
}

interface Entry {
  provider: ConnectionProvider;
  session?: ChannelSession;
  status: ConnectionStatus;
  retries: number;
  /** Bumped on every (re)start, stop and removal: events of an older session are stale. */
  generation: number;
  timer?: NodeJS.Timeout;
}

/** For a session created only to log out: it never connects, so it has nothing to report. */
const IDLE_HANDLERS: ChannelHandlers = {
  onQr: () => {},
  onStatus: () => {},
  onClosed: () => {},
  onMessage: async () => {},
  onUpdate: async () => {},
  onCall: async () => {},
};

const DEFAULT_BACKOFF = { initialMs: 2_000, maxMs: 60_000 };

export function createSessionManager(deps: SessionManagerDeps): SessionManager {
  const { db, factories, logger, sink } = deps;
  const backoff = deps.backoff ?? DEFAULT_BACKOFF;
  const entries = new Map<number, Entry>();
  let stopping = false;

  // States of one connection are persisted in order: a late "qrcode" must never overwrite "CONNECTED".
  const chains = new Map<number, Promise<void>>();
  const report = (id: number, state: ConnectionState): Promise<void> => {
    const next = (chains.get(id) ?? Promise.resolve())
      .then(() => deps.onState(id, state))
      .catch((error) => logger.error({ err: error, whatsappId: id }, "could not persist connection state"));
    chains.set(id, next);
    void next.then(() => {
      if (chains.get(id) === next) chains.delete(id);
    });
    return next;
  };
  const settled = (id: number) => chains.get(id) ?? Promise.resolve();

  const isCurrent = (id: number, entry: Entry, generation: number) =>
    entries.get(id) === entry && entry.generation === generation && !stopping;

  const setStatus = (id: number, entry: Entry, status: ConnectionStatus, extra: ConnectionState = {}) => {
    entry.status = status;
    return report(id, { status, ...extra });
  };

  async function loadProvider(id: number): Promise<ConnectionProvider> {
    const [row] = await db.select({ provider: whatsapps.provider }).from(whatsapps).where(eq(whatsapps.id, id));
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
    return row.provider as ConnectionProvider;
  }

  function makeHandlers(id: number, entry: Entry, generation: number): ChannelHandlers {
    // Messages are real even when they come from a session being replaced: the pipeline is
    // idempotent, so they are forwarded as long as the connection exists here.
    const known = () => entries.get(id) === entry;
    return {
      onQr: (qr) => {
        if (isCurrent(id, entry, generation)) void setStatus(id, entry, "qrcode", { qrcode: qr });
      },
      onStatus: (status) => {
        if (!isCurrent(id, entry, generation) || status === entry.status) return;
        if (status === "CONNECTED") entry.retries = 0;
        const extra: ConnectionState =
          status === "CONNECTED" ? { qrcode: "", retries: 0 } : status === "PAIRING" ? { qrcode: "" } : {};
        void setStatus(id, entry, status, extra);
      },
      onClosed: ({ reason, error }) => {
        if (isCurrent(id, entry, generation)) void closed(id, entry, reason, error);
      },
      onMessage: async (message) => {
        if (known()) await sink.onMessage(id, message);
      },
      onUpdate: async (update) => {
        if (known()) await sink.onUpdate(id, update);
      },
      onCall: async (call) => {
        if (known()) await sink.onCall(id, call);
      },
    };
  }

  /** Stop whatever runs for the entry and make its pending events stale. */
  async function halt(entry: Entry, how: "stop" | "logout") {
    entry.generation += 1;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    const session = entry.session;
    entry.session = undefined;
    if (session) await session[how]().catch((error) => logger.warn({ err: error }, `channel ${how} failed`));
  }

  async function launch(id: number, entry: Entry) {
    entry.generation += 1;
    const generation = entry.generation;
    const session = factories[entry.provider]({ whatsappId: id, db, handlers: makeHandlers(id, entry, generation), logger });
    entry.session = session;
    await setStatus(id, entry, "OPENING", { qrcode: "" });
    try {
      await session.start();
    } catch (error) {
      logger.warn({ err: error, whatsappId: id }, "channel failed to start");
      if (isCurrent(id, entry, generation)) await closed(id, entry, "dropped", String(error));
    }
    // What the channel reported while starting is persisted before start() returns.
    await settled(id);
  }

  async function closed(id: number, entry: Entry, reason: CloseReason, error?: string) {
    const session = entry.session;
    entry.session = undefined;
    entry.generation += 1;
    await session?.stop().catch(() => {});
    if (reason !== "dropped") {
      logger.info({ whatsappId: id, reason }, "connection closed, waiting for a new QR");
      entry.retries = 0;
      await setStatus(id, entry, "DISCONNECTED", { qrcode: "", retries: 0 });
      return;
    }
    entry.retries += 1;
    const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (entry.retries - 1));
    logger.warn({ whatsappId: id, retries: entry.retries, delay, error }, "connection dropped, reconnecting");
    await setStatus(id, entry, "TIMEOUT", { retries: entry.retries });
    const generation = entry.generation;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (isCurrent(id, entry, generation)) void launch(id, entry);
    }, delay);
    entry.timer.unref?.();
  }

  const lease: SessionLease | undefined = deps.lease
    ? createSessionLease(db, deps.lease, logger, {
        owned: () => [...entries.keys()],
        lost: async (id) => {
          const entry = entries.get(id);
          if (!entry) return;
          entries.delete(id);
          await halt(entry, "stop");
        },
        takeOver: (id) => start(id),
      })
    : undefined;

  async function start(id: number) {
    if (stopping) return;
    if (lease && !(await lease.acquire(id))) {
      logger.info({ whatsappId: id }, "connection is owned by another process");
      return;
    }
    const existing = entries.get(id);
    const provider = await loadProvider(id);
    if (existing) await halt(existing, "stop");
    const entry: Entry = existing ?? { provider, status: "OPENING", retries: 0, generation: 0 };
    entry.provider = provider;
    entry.retries = 0;
    entries.set(id, entry);
    await launch(id, entry);
  }

  /** Log the phone out, whether or not a session is live right now (e.g. waiting to reconnect). */
  async function unpair(id: number): Promise<Entry | undefined> {
    const entry = entries.get(id);
    if (entry?.session) {
      await halt(entry, "logout");
      return entry;
    }
    if (entry) await halt(entry, "stop");
    const provider = entry?.provider ?? (await loadProvider(id));
    const idle = factories[provider]({ whatsappId: id, db, handlers: IDLE_HANDLERS, logger });
    await idle.logout().catch((error) => logger.warn({ err: error, whatsappId: id }, "logout failed"));
    return entry;
  }

  function liveEntry(id: number) {
    const entry = entries.get(id);
    return entry?.session && entry.status === "CONNECTED" ? { entry, session: entry.session } : undefined;
  }

  return {
    async startAll() {
      const rows = await db.select({ id: whatsapps.id }).from(whatsapps).orderBy(whatsapps.id);
      await Promise.all(
        rows.map((row) =>
          start(row.id).catch((error) => logger.error({ err: error, whatsappId: row.id }, "could not start connection")),
        ),
      );
      lease?.run();
    },
    start,
    async requestNewQr(id) {
      // Unpair first so that the next start has no credentials and shows a QR.
      await unpair(id);
      await start(id);
    },
    async disconnect(id) {
      const entry = await unpair(id);
      if (entry) {
        entry.retries = 0;
        await setStatus(id, entry, "DISCONNECTED", { qrcode: "", retries: 0 });
      } else await report(id, { status: "DISCONNECTED", qrcode: "", retries: 0 });
    },
    async remove(id) {
      const entry = entries.get(id);
      if (!entry) return;
      entries.delete(id);
      await halt(entry, "stop");
      await lease?.release(id);
    },
    get(id) {
      const live = liveEntry(id);
      if (!live) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      return live.session;
    },
    isConnected: (id) => liveEntry(id) !== undefined,
    provider: (id) => entries.get(id)?.provider,
    status: (id) => entries.get(id)?.status,
    async stopAll() {
      stopping = true;
      lease?.stop();
      const all = [...entries.entries()];
      entries.clear();
      await Promise.all(all.map(([, entry]) => halt(entry, "stop")));
      await Promise.all(all.map(([id]) => lease?.release(id)));
    },
  };
}
