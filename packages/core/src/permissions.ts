import type { Profile } from "./constants.js";
import { isChoosingQueue } from "./routing.js";

/**
 * The one rule table (design §4). The web hides controls with it and the server
 * refuses requests with it, so the two never disagree.
 */
export const PERMISSIONS = [
  // spec §6 names
  "drawer-admin-items:view",
  "tickets-manager:showall",
  "user-modal:editProfile",
  "user-modal:editQueues",
  "ticket-options:deleteTicket",
  "contacts-page:deleteContact",
  // server-side actions the spec leaves implicit (design §4)
  "users:manage",
  "queues:manage",
  "connections:manage",
  "connections:viewQrcode",
  "settings:manage",
  "contacts:import",
  /** A number is where replies go: changing one that has tickets, and reading who did, is admin work. */
  "contacts:changeNumber",
  "contacts:viewChanges",
  /** Issue 18: fold a duplicate contact of one person (e.g. a ninth-digit twin) into another. */
  "contacts:merge",
  "simulator:use",
  /** Issue 11: see, edit and cancel every agent's scheduled messages (agents: their own). */
  "schedules:manageAll",
  /** Issue 11: outbound webhooks (their secrets sign what the server sends). */
  "webhooks:manage",
  // Issue 11: tags (reading them is for everyone signed in)
  "tags:manage",
  /** Issue 13: automatic assignment per queue and agents' capacity. */
  "routing:manage",
  /** Backups hold every conversation and the secrets' ciphertexts: make, schedule and download them. */
  "backups:manage",
  /** Issue 22 §4: read and export the audit trail (who did what, from where). */
  "audit:view",
  /** Issue 22 §5: end every session of another user (each user ends their own). */
  "sessions:manageAll",
  /** Issue 22 §1: retention policies, legal holds and running the sweep. */
  "retention:manage",
  /** Issue 23 §6: the list of closing reasons (everyone signed in reads it to close tickets). */
  "closing-reasons:manage",
  /** Issue 22 §5: turn off another user's two-factor sign-in (a lost phone); never one's own. */
  "twoFactor:reset",
  /** Issue 22 §2: download everything held about one customer (LGPD art. 18 II and V). */
  "contacts:exportData",
  /** Issue 22 §2: erase a customer everywhere, irreversibly (LGPD art. 18 VI). */
  "contacts:erase",
  /** Issue 22 §3: the consent messages per connection or queue and the install-wide opt-out words. */
  "consent:manage",
  /** Issue 23 §2: shared macros (everyone writes and runs their own personal ones). */
  "macros:manage",
  /**
   * Issue 23 §5: make any agent a contact's owner, or take it from one (docs/contact-owner.md).
   * Without it an agent takes an unowned contact for themself and lets go of their own only.
   */
  "contacts:setOwner",
  /** Issue 23 §1: automation rules (their actions run as the admin who saved them), their log and dry run. */
  "rules:manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const RULES: Record<Profile, readonly Permission[]> = {
  admin: PERMISSIONS,
  user: [],
};

export interface Actor {
  id: number;
  profile: string;
}

/** The admin test compares the profile case-insensitively (spec §6). */
export function normaliseProfile(profile: string): Profile {
  return profile.toLowerCase() === "admin" ? "admin" : "user";
}

export function can(actor: Pick<Actor, "profile"> | null | undefined, permission: Permission): boolean {
  if (!actor) return false;
  return RULES[normaliseProfile(actor.profile)].includes(permission);
}

export function isAdmin(actor: Pick<Actor, "profile"> | null | undefined): boolean {
  return !!actor && normaliseProfile(actor.profile) === "admin";
}

export interface TicketAccessTarget {
  userId: number | null;
  queueId: number | null;
}

/**
 * Who may read and act on a ticket (design §4): its assignee, members of its
 * queue, anyone for a ticket without queue, and every admin.
 */
export function canAccessTicket(actor: Actor & { queueIds: readonly number[] }, ticket: TicketAccessTarget): boolean {
  if (isAdmin(actor)) return true;
  if (ticket.userId === actor.id) return true;
  if (ticket.queueId === null) return true;
  return actor.queueIds.includes(ticket.queueId);
}

/**
 * Who sees a ticket in the lists and hears of it live: `canAccessTicket`, less the tickets still at
 * the greeting menu for an agent while the setting `showChoosingQueue` is disabled (issue 13). The
 * server's SQL (`modules/tickets/access.ts`) and socket rooms (`realtime/rooms.ts`) are this rule.
 */
export function seesTicket(
  actor: Actor & { queueIds: readonly number[] },
  ticket: TicketAccessTarget & { menuSentAt?: Date | string | null; choosingQueue?: boolean },
  agentsSeeChoosing: boolean,
): boolean {
  if (!canAccessTicket(actor, ticket)) return false;
  return isAdmin(actor) || agentsSeeChoosing || !isChoosingQueue(ticket);
}
