import {
  isAdmin,
  PUBLIC_SETTING_KEYS,
  type RealtimeEventName,
  type RealtimePayloads,
  redactConnection,
  type SettingKey,
} from "@zapdesk/core";
import type { TicketScope } from "./publisher.js";

/** Rooms a socket sits in; only the server puts sockets into them. */
export const ROOM = {
  everyone: "authenticated",
  admins: "admins",
  user: (id: number) => `user:${id}`,
  /** Issue 22 §5: the sockets of one sign-in, dropped when it ends. */
  session: (id: string) => `session:${id}`,
  queue: (id: number) => `queue:${id}`,
  /** Issue 13: who hears of tickets at the greeting menu (admins; agents when `showChoosingQueue` is enabled). */
  choosing: "choosing-queue",
} as const;

export function roomsFor(user: { id: number; profile: string; queueIds: number[] }, agentsSeeChoosing = false): string[] {
  const rooms: string[] = [ROOM.everyone, ROOM.user(user.id), ...user.queueIds.map(ROOM.queue)];
  if (isAdmin(user)) rooms.push(ROOM.admins);
  if (isAdmin(user) || agentsSeeChoosing) rooms.push(ROOM.choosing);
  return rooms;
}

export interface Delivery {
  rooms: string[];
  except?: string[];
  payload: unknown;
}

/**
 * The sockets that may see a ticket: admins, its assignee, its queue's members, or everyone when it
 * has no queue (issue 13: the choosing room while it is at the greeting menu).
 */
export function ticketRooms(scope: TicketScope): string[] {
  const rooms: string[] = [ROOM.admins];
  if (scope.userId !== null) rooms.push(ROOM.user(scope.userId));
  rooms.push(scope.queueId !== null ? ROOM.queue(scope.queueId) : scope.choosing ? ROOM.choosing : ROOM.everyone);
  return rooms;
}

/**
 * A ticket changed hands: the sockets that could see it before and cannot now are told to drop it
 * (design §4, one rule: `ticketRooms` is `canAccessTicket` as rooms). The row is gone for them, the
 * ticket is not: `reason: "moved"` lets an open chat say so instead of "deleted".
 */
export function movedDelivery(ticketId: number, from: TicketScope, to: TicketScope): Delivery {
  return { rooms: ticketRooms(from), except: ticketRooms(to), payload: { action: "delete", ticketId, reason: "moved" } };
}

/** The policy for events that are not about a ticket (design §4). */
export function deliveriesOf<K extends RealtimeEventName>(event: K, payload: RealtimePayloads[K]): Delivery[] {
  if (event === "settings") {
    const { setting } = payload as RealtimePayloads["settings"];
    const isPublic = PUBLIC_SETTING_KEYS.includes(setting.key as SettingKey);
    return [{ rooms: [isPublic ? ROOM.everyone : ROOM.admins], payload }];
  }
  // The QR code, pairing code, Cloud API settings and health reach admins only.
  if (event === "whatsapp") {
    const p = payload as RealtimePayloads["whatsapp"];
    const stripped = p.action === "update" ? { ...p, whatsapp: redactConnection(p.whatsapp) } : p;
    return [
      { rooms: [ROOM.admins], payload },
      { rooms: [ROOM.everyone], except: [ROOM.admins], payload: stripped },
    ];
  }
  if (event === "whatsappSession") {
    const p = payload as RealtimePayloads["whatsappSession"];
    return [
      { rooms: [ROOM.admins], payload },
      { rooms: [ROOM.everyone], except: [ROOM.admins], payload: { ...p, session: redactConnection(p.session) } },
    ];
  }
  // WhatsApp restricted a connection's number: for the admins who can act on it.
  if (event === "connectionRestricted") return [{ rooms: [ROOM.admins], payload }];
  // Issue 13: an automatic assignment is told to the assignee alone (the ticket event reaches the rest).
  if (event === "ticketAssigned") {
    return [{ rooms: [ROOM.user((payload as RealtimePayloads["ticketAssigned"]).userId)], payload }];
  }
  // Issue 11: a note's mention reaches the mentioned colleague alone.
  if (event === "noteMention") {
    return [{ rooms: [ROOM.user((payload as RealtimePayloads["noteMention"]).mention.userId)], payload }];
  }
  // Issue 23 §3: a menu tree is for those who edit connections.
  if (event === "menu") return [{ rooms: [ROOM.admins], payload }];
  // Issue 23 §1: automation rules are admin configuration.
  if (event === "automationRule") return [{ rooms: [ROOM.admins], payload }];
  // Issue 23 §2: a personal macro reaches its owner alone; a shared one everyone.
  if (event === "macro") {
    const p = payload as RealtimePayloads["macro"];
    const ownerId = p.action === "delete" ? p.ownerId : p.macro.ownerId;
    if (ownerId !== null) return [{ rooms: [ROOM.user(ownerId)], payload }];
  }
  return [{ rooms: [ROOM.everyone], payload }];
}
