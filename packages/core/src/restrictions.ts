import { z } from "zod";
import { SERVICE_WINDOW_MS } from "./constants.js";

/**
 * What WhatsApp restricts on a QR connection's number (Baileys 7 reports both):
 * - the reach-out time-lock: no new chats until a time WhatsApp gives (`enforcementType` says why,
 *   e.g. BIZ_QUALITY; DEFAULT means no specific policy);
 * - the monthly cap on new chats (messages to people who have not answered): how many the cycle
 *   allows, how many are used, and a status that warns twice before CAPPED.
 * Sending into a new chat while restricted is refused (NACK 463) and counts as another reach-out.
 */
export const NEW_CHAT_CAP_STATUSES = ["NONE", "FIRST_WARNING", "SECOND_WARNING", "CAPPED"] as const;
export type NewChatCapStatus = (typeof NEW_CHAT_CAP_STATUSES)[number];

export const timeLockSchema = z.object({
  /** WhatsApp's enforcement type (DEFAULT, BIZ_QUALITY, BIZ_COMMERCE_VIOLATION_…, WEB_COMPANION_ONLY). */
  enforcementType: z.string(),
  /** When WhatsApp lifts it; null when WhatsApp gave no time. */
  endsAt: z.iso.datetime().nullable(),
  /** When Zapdesk learned of it. */
  since: z.iso.datetime(),
});

export const newChatCapSchema = z.object({
  used: z.number().nullable(),
  total: z.number().nullable(),
  status: z.enum(NEW_CHAT_CAP_STATUSES),
  /** The end of the current monthly cycle (the quota starts again then), when WhatsApp says. */
  cycleEndsAt: z.iso.datetime().nullable(),
  /** When WhatsApp last reported it. */
  updatedAt: z.iso.datetime(),
});

/** A QR connection's restrictions as the API shows them (admins only); null: WhatsApp reported none. */
export const connectionRestrictionSchema = z.object({
  /** The reach-out time-lock, while active (null: none). */
  timeLock: timeLockSchema.nullable(),
  /** The last report of the monthly cap on new chats (null: never reported). */
  newChatCap: newChatCapSchema.nullable(),
});
export type ConnectionRestriction = z.infer<typeof connectionRestrictionSchema>;

/**
 * How recent the customer's last message must be for a send to be an answer rather than a
 * reach-out: a chat the customer has not written in for this long is a chat Zapdesk would open
 * (or re-open). The same 24 hours as the Cloud API's service window, so one rule reads the same
 * everywhere; WhatsApp does not publish its own, and holding a little more is the safe side.
 */
export const REACHOUT_WINDOW_MS = SERVICE_WINDOW_MS;

/** Codes a queued outbound message can carry while it waits or after it went out unconfirmed (ack 0). */
export const OUTBOX_NOTICES = {
  /** Held while the connection is restricted: an automatic message that would open a chat. */
  held: "HELD_RESTRICTED",
  /** The send's answer never came: it may have arrived; never resent automatically. */
  outcomeUnknown: "OUTCOME_UNKNOWN",
} as const;

/** Why new chats cannot be opened now, and until when (null: WhatsApp gave no end); null when they can. */
export function newChatBlock(
  restriction: ConnectionRestriction | null | undefined,
  now: Date,
): { kind: "timeLock" | "newChatCap"; until: Date | null } | null {
  if (!restriction) return null;
  const pending = (iso: string | null) => iso === null || Date.parse(iso) > now.getTime();
  const lock = restriction.timeLock;
  if (lock && pending(lock.endsAt)) return { kind: "timeLock", until: lock.endsAt ? new Date(lock.endsAt) : null };
  const cap = restriction.newChatCap;
  if (cap?.status === "CAPPED" && pending(cap.cycleEndsAt)) {
    return { kind: "newChatCap", until: cap.cycleEndsAt ? new Date(cap.cycleEndsAt) : null };
  }
  return null;
}

/** Worth an admin's attention: new chats are blocked, or WhatsApp warned that the cap is near. */
export function restrictionNeedsAttention(restriction: ConnectionRestriction | null | undefined, now: Date): boolean {
  if (newChatBlock(restriction, now)) return true;
  const status = restriction?.newChatCap?.status;
  const cycleOpen = !restriction?.newChatCap?.cycleEndsAt || Date.parse(restriction.newChatCap.cycleEndsAt) > now.getTime();
  return cycleOpen && (status === "FIRST_WARNING" || status === "SECOND_WARNING");
}
