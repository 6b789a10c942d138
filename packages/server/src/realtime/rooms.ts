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
  queue: (id: number) => `queue:${id}`,
} as const;

export function roomsFor(user: { id: number; profile: string; queueIds: number[] }): string[] {
  const rooms: string[] = [ROOM.everyone, ROOM.user(user.id), ...user.queueIds.map(ROOM.queue)];
  if (isAdmin(user)) rooms.push(ROOM.admins);
  return rooms;
}

export interface Delivery {
  rooms: string[];
  except?: string[];
  payload: unknown;
}

/** The sockets that may see a ticket: admins, its assignee, its queue's members, or everyone when it has no queue. */
export function ticketRooms(scope: TicketScope): string[] {
  const rooms: string[] = [ROOM.admins];
  if (scope.userId !== null) rooms.push(ROOM.user(scope.userId));
  rooms.push(scope.queueId === null ? ROOM.everyone : ROOM.queue(scope.queueId));
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
  return [{ rooms: [ROOM.everyone], payload }];
}
