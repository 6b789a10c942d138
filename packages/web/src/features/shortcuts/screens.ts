import { can, type Permission, type User } from "@zapdesk/core";

/**
 * The menu's screens, read by the drawer, the router's guards and the palette: each under the
 * drawer's own label (`mainDrawer.listItems.<key>`); an administration screen names the permission
 * its server routes check, and is shown and routed only to whom the permission table grants it.
 */
export interface Screen {
  path: string;
  key: string;
  permission?: Permission;
}

export const SCREENS: Screen[] = [
  { path: "/", key: "dashboard" },
  { path: "/tickets", key: "tickets" },
  { path: "/contacts", key: "contacts" },
  { path: "/quickAnswers", key: "quickAnswers" },
  { path: "/macros", key: "macros" },
  { path: "/ZDG", key: "bulkMessages" },
  { path: "/ZDGMedia", key: "bulkMedia" },
  { path: "/ZDGGroups", key: "groups" },
  { path: "/InstaDirect", key: "instaDirect" },
  { path: "/SMS", key: "sms" },
  { path: "/VoiceCall", key: "voiceCall" },
  { path: "/ZDGChatbot", key: "chatbot" },
  { path: "/ZDGAgendamento", key: "schedule" },
  { path: "/ZDGHistorico", key: "history" },
  { path: "/ZDGComunidade", key: "licence" },
  { path: "/ZDGPassaporte", key: "community" },
  { path: "/users", key: "users", permission: "users:manage" },
  { path: "/connections", key: "connections", permission: "connections:manage" },
  { path: "/Queues", key: "queues", permission: "queues:manage" },
  { path: "/tags", key: "tags", permission: "tags:manage" },
  { path: "/closing-reasons", key: "closingReasons", permission: "closing-reasons:manage" },
  { path: "/Settings", key: "settings", permission: "settings:manage" },
  { path: "/webhooks", key: "webhooks", permission: "webhooks:manage" },
  { path: "/audit", key: "audit", permission: "audit:view" },
  { path: "/automation", key: "automationRules", permission: "rules:manage" },
];

export function mayOpen(user: Pick<User, "profile"> | null | undefined, screen: Screen): boolean {
  return !screen.permission || can(user, screen.permission);
}

export function visibleScreens(user: Pick<User, "profile"> | null | undefined): Screen[] {
  return SCREENS.filter((screen) => mayOpen(user, screen));
}

/** The permission a screen's path needs (none for the everyday screens). */
export function screenPermission(path: string): Permission | undefined {
  return SCREENS.find((screen) => screen.path === path)?.permission;
}

/** Case- and accent-insensitive "contains", for the palette's filter. */
export const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
