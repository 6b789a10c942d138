import type { ClosingChoice, ClosingReasonMode } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queues, tickets } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { findClosingReason } from "./closing-reasons.repo.js";

/** A close's reason once checked: null when none was given (and none was required). */
export interface CheckedClosing {
  reasonId: number | null;
  value: number | null;
}

/** What the ticket's queue asks for at a close; a ticket without a queue asks for nothing. */
export async function closingModeOf(db: Db, queueId: number | null): Promise<ClosingReasonMode> {
  if (queueId === null) return "off";
  const [row] = await db.select({ mode: queues.closingReason }).from(queues).where(eq(queues.id, queueId));
  return row?.mode ?? "off";
}

/**
 * Issue 23 §6: the one check of a closing reason, for every road that closes a ticket or sets its
 * reason (Resolve, Protocolo, the API token, a future automation rule's action): the queue's
 * "required" refuses a close without one; the reason exists, is not archived (for a new close)
 * and has a value exactly when it asks for one. Runs in the caller's transaction (the reason is
 * locked against deletion until it commits).
 */
export async function checkClosing(
  tx: Db,
  input: { queueId: number | null; choice: ClosingChoice; mode?: ClosingReasonMode },
): Promise<CheckedClosing> {
  const mode = input.mode ?? (await closingModeOf(tx, input.queueId));
  const reasonId = input.choice.closingReasonId ?? null;
  const value = input.choice.closingValue ?? null;
  if (reasonId === null) {
    if (mode === "required") throw new AppError("ERR_CLOSING_REASON_REQUIRED");
    if (value !== null) throw new AppError("ERR_CLOSING_VALUE_NOT_ALLOWED");
    return { reasonId: null, value: null };
  }
  const reason = await findClosingReason(tx, reasonId, { lock: true });
  if (!reason) throw new AppError("ERR_NO_CLOSING_REASON_FOUND");
  if (reason.archived) throw new AppError("ERR_CLOSING_REASON_ARCHIVED");
  if (reason.asksValue && value === null) throw new AppError("ERR_CLOSING_VALUE_REQUIRED");
  if (!reason.asksValue && value !== null) throw new AppError("ERR_CLOSING_VALUE_NOT_ALLOWED");
  return { reasonId, value };
}

/** The ticket's columns for a close: this close replaces the last one's reason, time and agent. */
export const closingColumns = (checked: CheckedClosing, userId: number | null, at = new Date()) => ({
  closingReasonId: checked.reasonId,
  closingValue: checked.value,
  closingAt: at,
  closingUserId: userId,
});

/**
 * Set (or correct) the reason of a ticket that is closed already, keeping when and by whom it was
 * closed: what a rule's "set closing reason" action or an API correction does. The caller holds
 * the ticket's lock and announces the change after commit.
 */
export async function setClosingReason(
  tx: Db,
  ticket: { id: number; queueId: number | null; status: string },
  choice: ClosingChoice,
): Promise<CheckedClosing> {
  if (ticket.status !== "closed") throw new AppError("ERR_CLOSING_REASON_NOT_CLOSING");
  const checked = await checkClosing(tx, { queueId: ticket.queueId, choice });
  await tx
    .update(tickets)
    .set({ closingReasonId: checked.reasonId, closingValue: checked.value })
    .where(eq(tickets.id, ticket.id));
  return checked;
}
