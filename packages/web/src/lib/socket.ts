import type { ClientToServerEvents, ServerToClientEvents } from "@zapdesk/core";
import { io, type Socket } from "socket.io-client";
import { expireSession, refreshSession } from "./api-client";
import { getToken } from "./token-storage";

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;
let refusedInARow = 0;

/**
 * The one socket of the app. `auth` is a function so that every reconnection
 * presents the current access token, not the one we started with.
 */
export function connectSocket(): AppSocket {
  if (socket) return socket;
  const created: AppSocket = io({ path: "/socket.io", auth: (cb) => cb({ token: getToken() }) });
  created.on("connect", () => {
    refusedInARow = 0;
  });
  created.on("connect_error", async () => {
    // An auth refusal stops socket.io's own retries (`active` turns false): refresh, then try again.
    if (created.active) return;
    refusedInARow += 1;
    if (refusedInARow > 3) return;
    const token = await refreshSession().catch(() => null);
    if (socket !== created) return;
    if (token) created.connect();
    else expireSession();
  });
  socket = created;
  return created;
}

export function disconnectSocket(): void {
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
