import { isAdmin, PUBLIC_SETTING_KEYS, type RealtimeEventName, type RealtimePayloads, type SettingKey } from "@zapdesk/core";

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

/** The policy: who receives each event (design §4). */
export function audienceOf<K extends RealtimeEventName>(event: K, payload: RealtimePayloads[K]): string[] {
  if (event === "settings") {
    const { setting } = payload as RealtimePayloads["settings"];
    return PUBLIC_SETTING_KEYS.includes(setting.key as SettingKey) ? [ROOM.everyone] : [ROOM.admins];
  }
  return [ROOM.everyone];
}
