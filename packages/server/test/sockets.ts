import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { io as connectClient, type ManagerOptions, type Socket, type SocketOptions } from "socket.io-client";
import { expect } from "vitest";
import { eventually } from "./conversation.js";
import type { TestUser } from "./factories.js";
import type { TestApp } from "./harness.js";

/** Listen on a free port; the base URL for socket.io clients. */
export async function listen(app: TestApp): Promise<string> {
  await app.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
}

/** Real socket.io clients, closed together by `closeAll` (call it in afterEach). */
export function socketClients() {
  const sockets: Socket[] = [];
  return {
    open(base: string, options: Partial<ManagerOptions & SocketOptions> = {}): Socket {
      const socket = connectClient(base, { transports: ["websocket"], reconnection: false, forceNew: true, ...options });
      sockets.push(socket);
      return socket;
    },
    /** A connected socket, or the reason it was refused. */
    connect(base: string, token: string | undefined): Promise<Socket> {
      return opened(this.open(base, { auth: token === undefined ? {} : { token } }));
    },
    closeAll() {
      for (const socket of sockets.splice(0)) socket.disconnect();
    },
  };
}

/** Resolves with the reason once the server (or the client) closes the socket. */
export const disconnection = (socket: Socket) => new Promise<string>((resolve) => socket.once("disconnect", resolve));

/** The socket once connected, or the reason it was refused. */
export const opened = (socket: Socket) =>
  new Promise<Socket>((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });

export type RecordingSocket = Socket & { received: { event: string; payload: unknown }[] };

/** A real socket.io client signed in as `user` that records every event it receives. */
export function connectAs(url: string, user: TestUser, opened: Socket[]): Promise<RecordingSocket> {
  const socket = connectClient(url, {
    auth: { token: user.token },
    transports: ["websocket"],
    forceNew: true,
  }) as RecordingSocket;
  socket.received = [];
  socket.onAny((event, payload) => socket.received.push({ event, payload }));
  opened.push(socket);
  return new Promise((resolve, reject) => {
    socket.on("connect", () => resolve(socket));
    socket.on("connect_error", reject);
  });
}

/**
 * Wait until every socket has received whatever was published before now: an admin creates a queue,
 * which reaches every signed-in socket after the events already on their way. Then "never received"
 * is a fact, not a guess about timing.
 */
export async function flush(t: TestApp, admin: TestUser, sockets: RecordingSocket[]): Promise<void> {
  const name = `Flush ${randomBytes(5).toString("hex")}`;
  const color = `#${randomBytes(3).toString("hex")}`;
  const res = await t.app.inject({ method: "POST", url: "/api/queue", headers: admin.auth, payload: { name, color } });
  expect(res.statusCode, res.body).toBe(200);
  const marker = (s: RecordingSocket) =>
    s.received.some((r) => r.event === "queue" && (r.payload as { queue?: { name: string } }).queue?.name === name);
  await eventually(() => expect(sockets.every(marker)).toBe(true));
}

/** The `ticket` events a socket received about one ticket. */
export const ticketEvents = (socket: RecordingSocket, ticketId: number) =>
  socket.received
    .filter((r) => r.event === "ticket")
    .map((r) => r.payload as { action: string; ticketId?: number; reason?: string; ticket?: { id: number } })
    .filter((p) => p.ticketId === ticketId || p.ticket?.id === ticketId);
