import type { RealtimeEventName, RealtimePayloads } from "@zapdesk/core";

/**
 * What services may ask of the realtime layer. Services call it only after their
 * transaction committed; the realtime module alone decides which sockets receive what.
 */
export interface Publisher {
  publish<K extends RealtimeEventName>(event: K, payload: RealtimePayloads[K]): void;
  /** A user's profile or queues changed, or the user was deleted: re-evaluate their sockets. */
  userAccessChanged(userId: number, options?: { deleted?: boolean }): void;
}

/** For scripts and tools that run without a socket server. */
export const silentPublisher: Publisher = {
  publish: () => {},
  userAccessChanged: () => {},
};
