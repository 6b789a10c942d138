import { isChoosingQueue, PLACEHOLDER_PREVIEW, specialPreview } from "@zapdesk/core";
import { type SQL, sql } from "drizzle-orm";
import { tickets } from "../../db/schema.js";
import type { TicketScope } from "../../realtime/publisher.js";
import { isAliasAddress } from "../contacts/contact-addresses.js";
import { PLACEHOLDER_TYPE } from "../messages/inbound-placeholder.js";
import { lastMessageText } from "../messages/outbound.js";
import type { TicketRow } from "../tickets/tickets.repo.js";

/**
 * The ticket rules of an inbound message, for both roads into the store: one message at a time
 * (`messages/inbound-store.ts`) and the set-based batch (`messages/inbound-batch.ts`). Each rule is
 * written here once; the two roads differ only in how many rows one statement touches.
 */

/** What the rules read of an inbound message. */
export interface InboundItem {
  chat: string;
  isGroup: boolean;
  fromMe: boolean;
  timestamp: Date;
  type: string;
  body: string;
  media?: { name: string };
  quotedWid?: string;
}

// --- Which road -----------------------------------------------------------------------------

/**
 * Whether a message may take the batch: a customer's new message in a one-to-one chat addressed by
 * phone number, quoting nothing. Everything else (our own messages and echoes, groups, LIDs,
 * quotes) takes the one-message road in order.
 */
export function isBatchable(item: Pick<InboundItem, "fromMe" | "isGroup" | "quotedWid" | "chat">): boolean {
  return !item.fromMe && !item.isGroup && !item.quotedWid && !isAliasAddress(item.chat);
}

/** A connection with several queues greets each customer with the menu: one message at a time. */
export function connectionBatches(queueCount: number): boolean {
  return queueCount <= 1;
}

// --- Window reopen --------------------------------------------------------------------------

/** Since when a closed ticket is reopened by a customer's message (a group's, whatever its age). */
export function reopenWindowStart(now: Date, windowSeconds: number, isGroup: boolean): Date {
  return isGroup ? new Date(0) : new Date(now.getTime() - windowSeconds * 1000);
}

/** What a closed ticket reopened by a customer's message becomes: waiting, unassigned. */
export const REOPENED = { status: "pending", userId: null } as const;

/**
 * A customer's ticket among a contact's tickets on the connection: the active one, else the one
 * that moved most recently within the window (to reopen), else none (a new one is opened).
 */
export function pickTicket(candidates: TicketRow[], since: Date): { ticket: TicketRow; reopen: boolean } | undefined {
  const active = candidates.find((t) => t.status === "pending" || t.status === "open");
  if (active) return { ticket: active, reopen: false };
  const recent = candidates.filter((t) => t.updatedAt >= since).sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
  return recent ? { ticket: recent, reopen: true } : undefined;
}

// --- Preview, unread, lastInboundAt ---------------------------------------------------------

/** The ticket's preview after an inbound message: its text (a shared contact or a location marked as such), else its file name or kind. */
export function previewOfInbound(item: Pick<InboundItem, "type" | "body" | "media">): string {
  if (item.type === PLACEHOLDER_TYPE) return PLACEHOLDER_PREVIEW;
  const special = specialPreview(item.type, item.body);
  if (special !== undefined) return lastMessageText(special);
  return lastMessageText(item.body, item.media?.name ?? (item.type !== "chat" ? item.type : ""));
}

/** What a ticket's messages of one write add up to: its new preview, and the customer's messages among them. */
export interface InboundTally {
  preview: string;
  /** The customer's messages (ours neither count as unread nor open the service window). */
  unread: number;
  /** The newest customer message's time. */
  latest: Date | null;
}

/** Tally a ticket's messages, in order. */
export function tallyInbound(items: Pick<InboundItem, "fromMe" | "timestamp" | "type" | "body" | "media">[]): InboundTally {
  const tally: InboundTally = { preview: "", unread: 0, latest: null };
  for (const item of items) {
    tally.preview = previewOfInbound(item);
    if (item.fromMe) continue;
    tally.unread += 1;
    if (!tally.latest || item.timestamp > tally.latest) tally.latest = item.timestamp;
  }
  return tally;
}

/**
 * The ticket columns an inbound write sets, from one tally, or from per-ticket SQL (a CASE over the
 * batch's tickets) that yields the same values: `preview` text, `unread` int, `latest` timestamptz.
 */
export function ticketSetAfterInbound(value: { preview: SQL; unread: SQL; latest: SQL } | InboundTally) {
  const v =
    "unread" in value && typeof value.unread === "number"
      ? fromTally(value as InboundTally)
      : (value as { preview: SQL; unread: SQL; latest: SQL });
  return {
    lastMessage: v.preview as unknown as string,
    unreadMessages: sql`${tickets.unreadMessages} + ${v.unread}` as unknown as number,
    lastInboundAt: sql`greatest(${tickets.lastInboundAt}, ${v.latest})` as unknown as Date,
  };
}

function fromTally(tally: InboundTally): { preview: SQL; unread: SQL; latest: SQL } {
  return {
    preview: sql`${tally.preview}::text`,
    unread: sql`${tally.unread}::int`,
    latest: tally.latest ? sql`${tally.latest.toISOString()}::timestamptz` : sql`null::timestamptz`,
  };
}

// --- Moved scope ----------------------------------------------------------------------------

/** Who sees a ticket: its assignee, its queue, and whether it is at the greeting menu. */
export function scopeOfTicket(ticket: Parameters<typeof isChoosingQueue>[0]): TicketScope {
  return { userId: ticket.userId, queueId: ticket.queueId, choosing: isChoosingQueue(ticket) };
}

/** The ticket changed hands (reopened unassigned, routed to a queue, left the menu): who had it, who has it. */
export function movedScope(from: TicketScope | undefined, to: TicketScope): { from: TicketScope; to: TicketScope } | undefined {
  if (!from) return undefined;
  const same = from.userId === to.userId && from.queueId === to.queueId && !!from.choosing === !!to.choosing;
  return same ? undefined : { from, to };
}
