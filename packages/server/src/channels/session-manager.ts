import { join } from "node:path";
import type { ConnectionProvider, ConnectionStatus, ConnectionStatusReason } from "@zapdesk/core";
import { AppError } from "../lib/app-error.js";
import { createKeyedSerial } from "../lib/keyed-serial.js";
import type { ChannelFactory, ChannelHandlers, ChannelSession, CloseReason } from "./channel.js";
import { createInboundSpool, type InboundSpool } from "./inbound-spool.js";
import { createSessionLease, type SessionLease } from "./session-lease.js";
import { createStateReporter } from "./session-state.js";
import type { ConnectionState, SessionManager, SessionManagerDeps } from "./session-types.js";

export type { ConnectionState, InboundSink, SessionManager, SessionManagerDeps } from "./session-types.js";

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
  onPairingCode: () => {},
  onStatus: () => {},
  onClosed: () => {},
  onMessage: async () => {},
  onUpdate: async () => {},
  onCall: async () => {},
  onIdentity: async () => {},
};

const DEFAULT_BACKOFF = { initialMs: 2_000, maxMs: 60_000 };
/** Scaled out: the state of a connection that no live process holds (its owner stopped or died). */
const NO_OWNER: ConnectionState = { status: "TIMEOUT", statusReason: "NO_OWNER", qrcode: "", pairingCode: "" };

export function createSessionManager(deps: SessionManagerDeps): SessionManager {
  const { store, factories, logger, sink } = deps;
  const backoff = deps.backoff ?? DEFAULT_BACKOFF;
  const entries = new Map<number, Entry>();
  let stopping = false;

  const { report, settled } = createStateReporter(deps.onState, logger);
  // One spool per connection and process: its count of waiting events lives with it.
  const spools = new Map<number, InboundSpool>();
  const spoolOf = (whatsappId: number) => {
    if (!deps.spoolDir) return undefined;
    let spool = spools.get(whatsappId);
    if (!spool) {
      spool = createInboundSpool(join(deps.spoolDir, `inbound-${whatsappId}.jsonl`));
      spools.set(whatsappId, spool);
    }
    return spool;
  };
  const context = (whatsappId: number, handlers: ChannelHandlers) => ({
    whatsappId,
    store,
    handlers,
    logger,
    inbox: store.inbox(whatsappId),
    spool: spoolOf(whatsappId),
    mediaMaxBytes: deps.mediaMaxBytes,
  });

  const isCurrent = (id: number, entry: Entry, generation: number) =>
    entries.get(id) === entry && entry.generation === generation && !stopping;

  const setStatus = (id: number, entry: Entry, status: ConnectionStatus, extra: ConnectionState = {}) => {
    entry.status = status;
    return report(id, { status, ...extra });
  };

  async function loadRow(id: number): Promise<{ provider: ConnectionProvider; status: ConnectionStatus }> {
    const row = await store.connection(id);
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
    return row;
  }

  function makeHandlers(id: number, entry: Entry, generation: number): ChannelHandlers {
    // Messages are real even when they come from a session being replaced: the pipeline is
    // idempotent, so they are forwarded as long as the connection exists here.
    const known = () => {
      if (entries.get(id) !== entry) return false;
      deps.onActivity?.(id);
      return true;
    };
    return {
      onQr: (qr) => {
        if (isCurrent(id, entry, generation)) void setStatus(id, entry, "qrcode", { qrcode: qr, pairingCode: "" });
      },
      onPairingCode: (code) => {
        if (isCurrent(id, entry, generation)) void setStatus(id, entry, "qrcode", { qrcode: "", pairingCode: code });
      },
      onStatus: (status) => {
        if (!isCurrent(id, entry, generation) || status === entry.status) return;
        if (status === "CONNECTED") entry.retries = 0;
        const extra: ConnectionState =
          status === "CONNECTED"
            ? { qrcode: "", pairingCode: "", retries: 0, statusReason: null }
            : status === "PAIRING"
              ? { qrcode: "", pairingCode: "" }
              : {};
        void setStatus(id, entry, status, extra);
      },
      onClosed: ({ reason, error, statusReason }) => {
        if (isCurrent(id, entry, generation)) void closed(id, entry, reason, error, statusReason);
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
      onIdentity: async (mapping) => {
        if (known()) await sink.onIdentity(id, mapping);
      },
      // A fact about the number, whichever session of the connection learned it.
      onRestriction: (restriction) => {
        if (known()) void report(id, { restriction });
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

  /** The provider's factory; a row whose provider this build does not know cannot be started. */
  function factoryOf(provider: ConnectionProvider): ChannelFactory {
    const factory = factories[provider];
    if (!factory) throw new AppError("ERR_WAPP_NOT_SUPPORTED");
    return factory;
  }

  async function launch(id: number, entry: Entry) {
    entry.generation += 1;
    const generation = entry.generation;
    const factory = factories[entry.provider];
    if (!factory) {
      logger.error({ whatsappId: id, provider: entry.provider }, "no channel for this kind of connection");
      await setStatus(id, entry, "DISCONNECTED", { qrcode: "", pairingCode: "", retries: 0, statusReason: null });
      return;
    }
    const session = factory(context(id, makeHandlers(id, entry, generation)));
    entry.session = session;
    await setStatus(id, entry, "OPENING", { qrcode: "", pairingCode: "" });
    try {
      await session.start();
    } catch (error) {
      logger.warn({ err: error, whatsappId: id }, "channel failed to start");
      if (isCurrent(id, entry, generation)) await closed(id, entry, "dropped", String(error));
    }
    // What the channel reported while starting is persisted before start() returns.
    await settled(id);
  }

  async function closed(id: number, entry: Entry, reason: CloseReason, error?: string, statusReason?: ConnectionStatusReason) {
    const session = entry.session;
    entry.session = undefined;
    entry.generation += 1;
    await session?.stop().catch(() => {});
    if (reason !== "dropped") {
      const why = statusReason ?? (reason === "loggedOut" ? "LOGGED_OUT" : reason === "qrTimeout" ? "QR_TIMEOUT" : null);
      logger.info({ whatsappId: id, reason, statusReason: why, error }, "connection closed, waiting for an admin");
      entry.retries = 0;
      await setStatus(id, entry, "DISCONNECTED", {
        qrcode: "",
        pairingCode: "",
        retries: 0,
        statusReason: why,
        ...(error ? { lastError: error } : {}),
      });
      return;
    }
    entry.retries += 1;
    const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (entry.retries - 1));
    logger.warn({ whatsappId: id, retries: entry.retries, delay, error }, "connection dropped, reconnecting");
    await setStatus(id, entry, "TIMEOUT", {
      retries: entry.retries,
      statusReason: statusReason ?? null,
      reconnecting: true,
      ...(error ? { lastError: error } : {}),
    });
    const generation = entry.generation;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (isCurrent(id, entry, generation)) void relaunch(id, entry, generation);
    }, delay);
    entry.timer.unref?.();
  }

  /** A reconnect only happens while this process still owns the connection. */
  async function relaunch(id: number, entry: Entry, generation: number) {
    if (lease && !(await lease.acquire(id).catch(() => false))) {
      logger.info({ whatsappId: id }, "connection now owned by another process");
      if (isCurrent(id, entry, generation)) entries.delete(id);
      return;
    }
    if (isCurrent(id, entry, generation)) await launch(id, entry);
  }

  const lease: SessionLease | undefined = deps.lease
    ? createSessionLease(store.leases, deps.lease, logger, {
        owned: () => [...entries.keys()],
        lost: (id) =>
          exclusive(id, async () => {
            const entry = entries.get(id);
            if (!entry) return;
            entries.delete(id);
            await halt(entry, "stop");
          }),
        takeOver: (id) => exclusive(id, () => resume(id)),
      })
    : undefined;

  /**
   * An explicit start (an admin's action, a new connection) claims the connection for this
   * process, even from another live owner, which stops its session at its next renewal.
   */
  async function start(id: number, force = true) {
    if (stopping) return;
    if (lease && !(await lease.acquire(id, force))) {
      logger.info({ whatsappId: id }, "connection is owned by another process");
      return;
    }
    const existing = entries.get(id);
    const row = await loadRow(id);
    if (existing) await halt(existing, "stop");
    const entry: Entry = existing ?? { provider: row.provider, status: "OPENING", retries: 0, generation: 0 };
    entry.provider = row.provider;
    entry.retries = 0;
    entries.set(id, entry);
    await launch(id, entry);
  }

  /**
   * Boot and takeover: connect what was meant to be connected. A DISCONNECTED connection (logged
   * out, QR never scanned, or disconnected by an admin) waits for an admin instead of popping a QR.
   */
  async function resume(id: number) {
    if (stopping || entries.has(id)) return;
    if (lease && !(await lease.acquire(id))) return;
    const row = await loadRow(id);
    await deps.onAdopted?.(id).catch((error) => logger.warn({ err: error, whatsappId: id }, "could not adopt connection"));
    if (row.status === "DISCONNECTED") {
      entries.set(id, { provider: row.provider, status: "DISCONNECTED", retries: 0, generation: 0 });
      return;
    }
    // Scaled out, the connection had no live owner: it says so (the reason stays while it opens) until connected here.
    if (lease) await report(id, NO_OWNER);
    await start(id, false);
  }

  /** Log the phone out, whether or not a session is live right now (e.g. waiting to reconnect). */
  async function unpair(id: number): Promise<Entry | undefined> {
    const entry = entries.get(id);
    if (entry?.session) {
      await halt(entry, "logout");
      return entry;
    }
    if (entry) await halt(entry, "stop");
    const provider = entry?.provider ?? (await loadRow(id)).provider;
    const idle = factoryOf(provider)(context(id, IDLE_HANDLERS));
    await idle.logout().catch((error) => logger.warn({ err: error, whatsappId: id }, "logout failed"));
    return entry;
  }

  async function disconnect(id: number) {
    if (lease) await lease.acquire(id, true);
    const entry = (await unpair(id)) ?? {
      provider: (await loadRow(id)).provider,
      status: "DISCONNECTED",
      retries: 0,
      generation: 0,
    };
    entries.set(id, entry);
    entry.retries = 0;
    await setStatus(id, entry, "DISCONNECTED", { qrcode: "", pairingCode: "", retries: 0, statusReason: null });
  }

  async function remove(id: number) {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    await halt(entry, "stop");
    await lease?.release(id);
  }

  // Admin actions on one connection run one at a time: two quick clicks never leave two sessions.
  const actions = createKeyedSerial<number>();
  const exclusive = <T>(id: number, work: () => Promise<T>) => actions.run(id, work);

  function liveEntry(id: number) {
    const entry = entries.get(id);
    return entry?.session && entry.status === "CONNECTED" ? { entry, session: entry.session } : undefined;
  }

  return {
    async startAll() {
      const ids = await store.connectionIds();
      await Promise.all(
        ids.map((id) =>
          exclusive(id, () => resume(id)).catch((error) =>
            logger.error({ err: error, whatsappId: id }, "could not start connection"),
          ),
        ),
      );
      lease?.run();
    },
    start: (id) => exclusive(id, () => start(id)),
    requestNewQr: (id) =>
      exclusive(id, async () => {
        if (lease) await lease.acquire(id, true);
        // Unpair first so that the next start has no credentials and shows a QR.
        await unpair(id);
        await start(id);
      }),
    disconnect: (id) => exclusive(id, () => disconnect(id)),
    remove: (id) => exclusive(id, () => remove(id)),
    get(id) {
      const live = liveEntry(id);
      if (!live) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      return live.session;
    },
    isConnected: (id) => liveEntry(id) !== undefined,
    provider: (id) => entries.get(id)?.provider,
    status: (id) => entries.get(id)?.status,
    spooled: (id) => spools.get(id)?.size() ?? 0,
    async stopAll() {
      stopping = true;
      lease?.stop();
      const all = [...entries.entries()];
      entries.clear();
      await Promise.all(all.map(([, entry]) => halt(entry, "stop")));
      if (!lease) return;
      // Said while still the owner, so that it never overwrites what the next owner reports.
      await Promise.all(
        all.map(async ([id, entry]) => {
          if (entry.status !== "DISCONNECTED" && (await lease.holds(id).catch(() => false))) await report(id, NO_OWNER);
          await lease.release(id);
        }),
      );
    },
  };
}
