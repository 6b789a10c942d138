import { can, type User } from "@zapdesk/core";

/**
 * The menu's screens for the palette (issue 13): the drawer's items, each under the drawer's own
 * label (`mainDrawer.listItems.<key>`), the administration ones only for whom the permission table
 * shows them (`drawer-admin-items:view`, as the drawer does).
 */
export interface Screen {
  path: string;
  key: string;
  admin?: boolean;
}

export const SCREENS: Screen[] = [
  { path: "/", key: "dashboard" },
  { path: "/tickets", key: "tickets" },
  { path: "/contacts", key: "contacts" },
  { path: "/quickAnswers", key: "quickAnswers" },
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
  { path: "/users", key: "users", admin: true },
  { path: "/connections", key: "connections", admin: true },
  { path: "/Queues", key: "queues", admin: true },
  { path: "/tags", key: "tags", admin: true },
  { path: "/Settings", key: "settings", admin: true },
  { path: "/webhooks", key: "webhooks", admin: true },
  { path: "/audit", key: "audit", admin: true },
];

export function visibleScreens(user: Pick<User, "profile"> | null | undefined): Screen[] {
  const admin = can(user, "drawer-admin-items:view");
  return SCREENS.filter((screen) => !screen.admin || admin);
}

/** Case- and accent-insensitive "contains", for the palette's filter. */
export const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
