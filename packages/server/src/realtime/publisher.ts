import type { RealtimeEventName, RealtimePayloads } from "@zapdesk/core";

/** Who a ticket belongs to, which decides who hears about it (design §4). */
export interface TicketScope {
  userId: number | null;
  queueId: number | null;
  /** Issue 13: still at the greeting menu; reaches agents only when `showChoosingQueue` is enabled. */
  choosing?: boolean;
}

export type TicketEventName = "ticket" | "appMessage" | "schedule" | "messagesRemoved";

/**
 * What services may ask of the realtime layer. Services call it only after their
 * transaction committed; the realtime module alone decides which sockets receive what.
 */
export interface Publisher {
  /** Events whose audience follows from the event itself (lists, settings, connections). */
  publish<K extends Exclude<RealtimeEventName, TicketEventName>>(event: K, payload: RealtimePayloads[K]): void;
  /** Ticket and message events reach only the sockets whose user may see that ticket. */
  publishTicket<K extends TicketEventName>(event: K, payload: RealtimePayloads[K], scope: TicketScope): void;
  /** Issue 11: an event for one user and the admins only (a scheduled message not tied to a ticket yet). */
  publishToUser<K extends TicketEventName>(event: K, payload: RealtimePayloads[K], userId: number | null): void;
  /** A ticket changed hands: those who could see it before and cannot now are told to drop it. */
  ticketMoved(ticketId: number, from: TicketScope, to: TicketScope): void;
  /** A user's profile or queues changed, or the user was deleted: re-evaluate their sockets. */
  userAccessChanged(userId: number, options?: { deleted?: boolean }): void;
  /**
   * Sessions ended (logout, "end session", a new password): the sockets of those sessions, or of
   * every session of the user without `sessionIds`, are dropped on every process.
   */
  endSessions(userId: number, sessionIds?: string[]): void;
  /** Issue 13: the setting `showChoosingQueue` changed: agents' sockets join or leave the choosing room. */
  choosingVisibilityChanged(enabled: boolean): void;
}

/** For scripts and tools that run without a socket server. */
export const silentPublisher: Publisher = {
  publish: () => {},
  publishTicket: () => {},
  publishToUser: () => {},
  ticketMoved: () => {},
  userAccessChanged: () => {},
  endSessions: () => {},
  choosingVisibilityChanged: () => {},
};
