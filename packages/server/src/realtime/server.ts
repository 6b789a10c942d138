import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import type { ClientToServerEvents, PresenceStatus, RealtimeEventName, ServerToClientEvents } from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";
import { Server, type Socket } from "socket.io";
import { bearerToken } from "../lib/bearer-token.js";
import { type Clock, systemClock } from "../lib/clock.js";
import { watchAdapter } from "./adapter-health.js";
import { presenceOf, userPresence } from "./presence.js";
import type { Publisher } from "./publisher.js";
import { type Delivery, deliveriesOf, movedDelivery, ROOM, roomsFor, ticketRooms } from "./rooms.js";

/** Who a socket is: what its rooms are made of (the auth module finds it). */
export interface SocketUser {
  id: number;
  name: string;
  email: string;
  profile: string;
  queueIds: number[];
}

interface SocketData {
  user: SocketUser;
  /** Issue 13: this tab is idle or its user chose "Away". */
  away?: boolean;
  /** Issue 13: `showChoosingQueue` as it was when the socket connected (later changes move the rooms). */
  seesChoosing?: boolean;
  /** When the access token it connected with expires (ms since the epoch). */
  expiresAt: number;
  /** Issue 22 §5: the session of that token (the socket is dropped when it ends). */
  sessionId: string;
}

/** How often each process drops its sockets whose access token expired. */
export const SOCKET_EXPIRY_SWEEP_MS = 15 * 1000;

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface Realtime extends Publisher {
  io: RealtimeServer;
  /** Disconnect this process's sockets whose token expired (runs every SOCKET_EXPIRY_SWEEP_MS; tests call it). */
  expireSockets(): number;
  /** Issue 13: every connected user's presence, across processes (absent: offline). */
  presence(): Promise<Map<number, PresenceStatus>>;
  close(): Promise<void>;
}

export interface RealtimeOptions {
  httpServer: HttpServer;
  /** The auth module: the user behind an access token, and when it expires; undefined or a throw refuses the socket. */
  authenticate(token: string): Promise<{ user: SocketUser; sessionId: string; expiresAt: Date } | undefined>;
  /** The user as stored now (rooms follow profile and queues); undefined once deleted. */
  findUser(userId: number): Promise<SocketUser | undefined>;
  /** Whether agents see the tickets at the greeting menu (the setting `showChoosingQueue`). */
  seesChoosing(): Promise<boolean>;
  /** Scopes the Redis adapter's channels to this installation. */
  installId: string;
  clock?: Clock;
  /** Whether the user may open this ticket (joinChatBox), decided by the tickets module. */
  canOpenTicket?: (user: SocketUser, ticketId: number) => Promise<boolean>;
  /** The user types in a ticket (the messages module checks access and tells the customer). */
  onTyping?: (user: SocketUser, ticketId: number, state: "composing" | "paused") => Promise<void>;
  logger: FastifyBaseLogger;
  redisUrl?: string;
}

/**
 * The Redis adapter publishes without awaiting (`pubClient.publish(...)` and forgets the promise), so
 * a publish on a connection that is closing or lost would be an unhandled rejection that can end the
 * process. The promise each publish returns is given a handler here: the loss is logged, and the
 * adapter behaves as it does for any message Redis did not deliver.
 */
function tolerateLostPublishes(client: Redis, logger: FastifyBaseLogger) {
  const publish = client.publish.bind(client) as (...args: unknown[]) => Promise<number>;
  (client as unknown as { publish: (...args: unknown[]) => Promise<number> }).publish = (...args) => {
    const sent = publish(...args);
    sent.catch((error: unknown) => logger.warn({ err: error }, "redis (realtime) publish lost"));
    return sent;
  };
}

export function createRealtime(options: RealtimeOptions): Realtime {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  const io: RealtimeServer = new Server(options.httpServer, { path: "/socket.io", serveClient: false });
  const redisClients: Redis[] = [];
  /** Set when the server closes: its own sockets' goodbyes then ask the adapter nothing more. */
  let closing = false;
  let adapter: { readonly reachesOthers: boolean } = { reachesOthers: true };

  if (options.redisUrl) {
    const pub = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
    const sub = pub.duplicate();
    // Reconnection attempts repeat every few seconds: the loss and the return are logged once each.
    for (const client of [pub, sub]) client.on("error", (error) => logger.debug({ err: error }, "redis (realtime) error"));
    tolerateLostPublishes(pub, logger);
    redisClients.push(pub, sub);
    // Scoped to the installation, so another install sharing this Redis never receives our events.
    io.adapter(createAdapter(pub, sub, { key: `zapdesk:${options.installId}` }));
    adapter = watchAdapter(pub, sub, {
      logger,
      isClosing: () => closing,
      // Through the adapter: this process's events were lost for the others' sockets too.
      onRecovered: () => io.emit("resync", { reason: "adapter" }),
    });
  }
  /** Every process's sockets through the adapter, or this process's only while Redis is lost. */
  const everywhere = () => (adapter.reachesOthers ? io : io.local);

  // Authenticate at connect: no token or a bad one and the socket is refused.
  io.use(async (socket, next) => {
    try {
      const raw = (socket.handshake.auth?.token as string | undefined) ?? bearerToken(socket.handshake.headers.authorization);
      if (!raw) return next(new Error("ERR_SESSION_EXPIRED"));
      const session = await options.authenticate(raw);
      if (!session) return next(new Error("ERR_SESSION_EXPIRED"));
      socket.data.user = session.user;
      socket.data.sessionId = session.sessionId;
      socket.data.expiresAt = session.expiresAt.getTime();
      socket.data.seesChoosing = await options.seesChoosing();
      next();
    } catch {
      next(new Error("ERR_SESSION_EXPIRED"));
    }
  });

  const expired = (socket: { data: Partial<SocketData> }) => (socket.data.expiresAt ?? 0) <= clock.now().getTime();

  /** Presence announcements under way: close() lets them finish before the adapter's clients quit. */
  const announcing = new Set<Promise<void>>();

  /** Issue 13: tell everyone a user's presence now (after a socket came, went or went idle). */
  function announcePresence(userId: number): Promise<void> {
    // Closing, the adapter's Redis clients are about to quit: a request now would be left unanswered.
    if (closing) return Promise.resolve();
    const work = presenceNow(userId).finally(() => announcing.delete(work));
    announcing.add(work);
    return work;
  }

  async function presenceNow(userId: number) {
    try {
      const status = userPresence(await everywhere().in(ROOM.user(userId)).fetchSockets(), userId);
      deliver("presence", { rooms: [ROOM.everyone], payload: { action: "update", userId, status } });
    } catch (error) {
      logger.warn({ err: error, userId }, "presence not announced");
    }
  }

  io.on("connection", (socket: AppSocket) => {
    // Past its token's expiry a socket may ask nothing more: it is dropped, and the client
    // reconnects with a fresh token (then refetches what it shows).
    socket.use((_packet, next) => {
      if (expired(socket)) socket.disconnect(true);
      else next();
    });
    socket.join([...roomsFor(socket.data.user, socket.data.seesChoosing), ROOM.session(socket.data.sessionId)]);
    const userId = socket.data.user.id;
    void announcePresence(userId);
    socket.on("disconnect", () => void announcePresence(userId));
    socket.on("presence", (status) => {
      if (status !== "online" && status !== "away") return;
      if (socket.data.away === (status === "away")) return;
      socket.data.away = status === "away";
      void announcePresence(userId);
    });
    // The client's room requests are accepted for compatibility; the server's own rooms
    // already decide what this socket receives (design §4).
    socket.on("joinNotification", () => {});
    socket.on("joinTickets", () => {});
    socket.on("joinChatBox", async (ticketId, ack) => {
      const id = Number(ticketId);
      let allowed = false;
      try {
        allowed =
          Number.isInteger(id) && id > 0 && !!options.canOpenTicket && (await options.canOpenTicket(socket.data.user, id));
      } catch (error) {
        logger.warn({ err: error }, "joinChatBox check failed");
      }
      if (allowed) socket.join(`ticket:${id}`);
      if (typeof ack === "function") ack(allowed ? { ok: true } : { ok: false, error: "ERR_NO_TICKET_FOUND" });
    });
    socket.on("leaveChatBox", (ticketId) => {
      socket.leave(`ticket:${Number(ticketId)}`);
    });
    socket.on("typing", (ticketId, state) => {
      const id = Number(ticketId);
      if (!Number.isInteger(id) || id <= 0 || (state !== "composing" && state !== "paused")) return;
      options.onTyping?.(socket.data.user, id, state).catch((error) => logger.debug({ err: error }, "typing not relayed"));
    });
  });

  function deliver(event: RealtimeEventName, delivery: Delivery) {
    // Closing, the adapter's clients quit: a late event (a job finishing its pass) has no one to reach.
    if (closing) return;
    let target = everywhere().to(delivery.rooms);
    if (delivery.except?.length) target = target.except(delivery.except);
    (target as unknown as { emit(name: string, body: unknown): boolean }).emit(event, delivery.payload);
  }

  async function refreshRooms(userId: number) {
    const user = await options.findUser(userId);
    const seesChoosing = await options.seesChoosing();
    const sockets = await io.in(ROOM.user(userId)).fetchSockets();
    for (const socket of sockets) {
      if (!user) {
        socket.disconnect(true);
        continue;
      }
      socket.data.user = user;
      const wanted = new Set(roomsFor(user, seesChoosing));
      for (const room of socket.rooms)
        if (room !== socket.id && !room.startsWith("ticket:") && !room.startsWith("session:") && !wanted.has(room))
          socket.leave(room);
      socket.join([...wanted]);
    }
  }

  function expireSockets(): number {
    let dropped = 0;
    for (const socket of io.of("/").sockets.values()) {
      if (!expired(socket)) continue;
      socket.disconnect(true);
      dropped++;
    }
    return dropped;
  }
  const sweeper = setInterval(expireSockets, SOCKET_EXPIRY_SWEEP_MS);
  sweeper.unref();

  return {
    io,
    expireSockets,
    async presence() {
      if (closing) return new Map();
      return presenceOf(await everywhere().fetchSockets());
    },
    choosingVisibilityChanged(enabled) {
      // Through the adapter: every process's sockets; admins stay in the room whatever the setting.
      if (enabled) io.in(ROOM.everyone).socketsJoin(ROOM.choosing);
      else io.in(ROOM.everyone).except(ROOM.admins).socketsLeave(ROOM.choosing);
    },
    publish(event, payload) {
      for (const delivery of deliveriesOf(event, payload)) deliver(event, delivery);
    },
    publishTicket(event, payload, scope) {
      deliver(event, { rooms: ticketRooms(scope), payload });
    },
    publishToUser(event, payload, userId) {
      deliver(event, { rooms: userId === null ? [ROOM.admins] : [ROOM.admins, ROOM.user(userId)], payload });
    },
    ticketMoved(ticketId, from, to) {
      deliver("ticket", movedDelivery(ticketId, from, to));
    },
    userAccessChanged(userId, opts) {
      if (opts?.deleted) {
        io.in(ROOM.user(userId)).disconnectSockets(true);
        return;
      }
      refreshRooms(userId).catch((error) => logger.warn({ err: error, userId }, "could not refresh socket rooms"));
    },
    endSessions(userId, sessionIds) {
      // Through the adapter: the sockets on every process.
      if (!sessionIds) io.in(ROOM.user(userId)).disconnectSockets(true);
      else if (sessionIds.length > 0) io.in(sessionIds.map(ROOM.session)).disconnectSockets(true);
    },
    async close() {
      // The HTTP server is Fastify's to close; here only the sockets and the adapter's clients.
      clearInterval(sweeper);
      closing = true;
      io.disconnectSockets(true);
      io.engine.close();
      await Promise.allSettled([...announcing]);
      await Promise.all(redisClients.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
