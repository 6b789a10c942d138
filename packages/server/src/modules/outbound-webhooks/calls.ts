import { WEBHOOK_CALL_EVENT } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { webhookDeliveries } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { findWebhook } from "./webhooks.repo.js";

/**
 * Issue 23 §1–§2: the event of a delivery that an action asked for (a macro's or a rule's "call an
 * outbound webhook"), not one a webhook subscribes to. Its data is the ticket, as for
 * `ticket.updated`, and `source`: what called it.
 */
export const ACTION_CALL_EVENT = WEBHOOK_CALL_EVENT;

/** Who asked for the call, sent as the delivery's `data.source`. */
export interface CallSource {
  kind: "macro" | "rule";
  id: number;
  name: string;
  userId: number;
}

/**
 * Queue one delivery of the ticket to an enabled webhook, in the caller's transaction: the worker
 * (woken after commit) signs, sends and retries it like every other, and a rolled-back call sends
 * nothing. The delivery's foreign key holds the webhook until the caller commits.
 */
export async function enqueueWebhookCall(tx: Db, webhookId: number, ticketId: number, source: CallSource): Promise<number> {
  const webhook = await findWebhook(tx, webhookId);
  if (!webhook?.enabled) throw new AppError("ERR_NO_WEBHOOK_FOUND");
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ webhookId, event: ACTION_CALL_EVENT, entityId: ticketId, previous: source })
    .returning({ id: webhookDeliveries.id });
  return row.id;
}
