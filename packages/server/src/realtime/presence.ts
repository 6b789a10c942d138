import type { PresenceStatus } from "@zapdesk/core";

/** What presence needs of a socket, local or on another process (the adapter's `fetchSockets`). */
export interface PresenceSocket {
  data: { user?: { id: number }; away?: boolean };
}

/**
 * Issue 13: a user's presence from their sockets on every process. Online: at least one socket
 * whose tab is active; away: sockets, all idle or set to "Away"; offline: no socket. Read live from
 * the sockets (through the Redis adapter with several processes), so a process that dies takes its
 * sockets' presence with it and nothing needs to expire.
 */
export function presenceOf(sockets: readonly PresenceSocket[]): Map<number, PresenceStatus> {
  const statuses = new Map<number, PresenceStatus>();
  for (const socket of sockets) {
    const userId = socket.data.user?.id;
    if (userId === undefined) continue;
    const status: PresenceStatus = socket.data.away ? "away" : "online";
    if (statuses.get(userId) !== "online") statuses.set(userId, status);
  }
  return statuses;
}

/** One user's presence from their own sockets. */
export function userPresence(sockets: readonly PresenceSocket[], userId: number): PresenceStatus {
  return presenceOf(sockets).get(userId) ?? "offline";
}
