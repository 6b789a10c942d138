import type { ClientToServerEvents, ServerToClientEvents } from "@zapdesk/core";
import type { Socket } from "socket.io-client";
import { expireSession, refreshSession } from "./api-client";
import { getToken } from "./token-storage";

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;
let opening: Promise<AppSocket> | null = null;
let refusedInARow = 0;
let connectedAt = 0;
let droppedInARow = 0;
let presence: "online" | "away" = "online";

/**
 * The one socket of the app. `auth` is a function so that every reconnection
 * presents the current access token, not the one we started with. socket.io's client is fetched
 * on the first call (after the first screen has painted), not with the app.
 */
export function connectSocket(): Promise<AppSocket> {
  if (socket) return Promise.resolve(socket);
  if (!opening) {
    const current = import("socket.io-client").then(({ io }) => {
      // Closed (signed out) while the client was loading: open nothing.
      if (opening !== current) throw new SocketClosedError();
      opening = null;
      return open(io);
    });
    current.catch(() => {
      if (opening === current) opening = null;
    });
    opening = current;
  }
  return opening;
}

/** `connectSocket` was overtaken by `disconnectSocket` before the connection opened. */
export class SocketClosedError extends Error {
  constructor() {
    super("the socket was closed before it opened");
  }
}

function open(io: typeof import("socket.io-client").io): AppSocket {
  const created: AppSocket = io({ path: "/socket.io", auth: (cb) => cb({ token: getToken() }) });
  async function reauthenticate() {
    const token = await refreshSession().catch(() => null);
    if (socket !== created) return;
    if (token) created.connect();
    else expireSession();
  }
  created.on("connect", () => {
    refusedInARow = 0;
    connectedAt = Date.now();
    // Issue 13: a new socket starts online on the server; tell it this tab's presence again.
    if (presence === "away") created.emit("presence", presence);
  });
  created.on("connect_error", async () => {
    // An auth refusal stops socket.io's own retries (`active` turns false): refresh, then try again.
    if (created.active) return;
    refusedInARow += 1;
    if (refusedInARow > 3) return;
    await reauthenticate();
  });
  created.on("disconnect", async (reason) => {
    // The server drops a socket whose token expired or whose session ended: come back with a
    // fresh token (the app refetches on reconnect), or sign out if the session is gone.
    if (reason !== "io server disconnect") return;
    droppedInARow = Date.now() - connectedAt < 5000 ? droppedInARow + 1 : 1;
    if (droppedInARow > 3) return;
    await reauthenticate();
  });
  socket = created;
  return created;
}

export function disconnectSocket(): void {
  opening = null;
  socket?.disconnect();
  socket = null;
}

/**
 * Tells the server the agent is typing in (or stopped typing in) a ticket, on the app's one
 * socket; nothing is queued while it is offline (a stale "typing…" is worse than none).
 */
export function emitTyping(ticketId: number, state: "composing" | "paused"): void {
  if (socket?.connected) socket.emit("typing", ticketId, state);
}

/** Issue 13: this tab is away (idle, hidden, or "Away" chosen) or online; repeated after a reconnection. */
export function emitPresence(status: "online" | "away"): void {
  presence = status;
  if (socket?.connected) socket.emit("presence", status);
}
