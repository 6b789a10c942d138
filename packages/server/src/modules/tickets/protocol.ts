import type { ClosingChoice } from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";
import { checkClosing } from "../closing-reasons/closing.js";
import { findContactById } from "../contacts/contacts.repo.js";
import type { OutboundQueue } from "../messages/outbound-queue.js";
import { postJson } from "../outbound-webhooks/http-post.js";
import { getSettingValue } from "../settings/settings.repo.js";
import type { AuthUser } from "../users/users.repo.js";
import * as repo from "./tickets.repo.js";
import type { TicketService } from "./tickets.service.js";

const WEBHOOK_TIMEOUT_MS = 5000;

/** yyyyMMddHHmmss + ticket id: readable, ordered, and unique because the id is. */
export function protocolNumber(at: Date, ticketId: number): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}${ticketId}`;
}

export type WebhookOutcome = "sent" | "failed" | "skipped";

/**
 * The protocol notice to an admin-configured webhook, guarded like the outbound webhooks (issue
 * 22): http(s) only, every address the name resolves to checked and the socket pinned to it (no
 * private or loopback target unless `protocolWebhookAllowPrivate` is enabled), no redirect
 * followed, a deadline for the whole exchange. A failure is logged and never blocks the close.
 */
export async function callProtocolWebhook(
  url: string,
  payload: { usuario: string; protocolo: string },
  logger: FastifyBaseLogger,
  options: { allowPrivate: boolean; timeoutMs?: number } = { allowPrivate: false },
): Promise<WebhookOutcome> {
  if (!url) return "skipped";
  const outcome = await postJson(
    url,
    JSON.stringify(payload),
    {},
    { allowPrivate: options.allowPrivate, timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS },
  );
  if (outcome.ok) return "sent";
  logger.warn({ status: outcome.status, error: outcome.error }, "protocol webhook failed");
  return "failed";
}

/**
 * POST /tickets/:id/protocol: a protocol number, the notice to the customer, the webhook, then close
 * (issue 23 §6: with the closing reason the queue asks for, checked before anything is sent).
 */
export function createProtocolService(deps: {
  db: Db;
  tickets: TicketService;
  clock: Clock;
  logger: FastifyBaseLogger;
  outbound: OutboundQueue;
}) {
  const { db, tickets } = deps;
  return async function issueProtocol(actor: AuthUser, id: number, choice: ClosingChoice = {}) {
    const ticket = await tickets.accessible(actor, id);
    if (ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN", { message: "Only an open ticket gets a protocol" });
    // A close the queue would refuse is refused before the customer hears of a protocol (the close checks again).
    await checkClosing(db, { queueId: ticket.queueId, choice });
    const contact = await findContactById(db, ticket.contactId);
    if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
    const protocol = protocolNumber(deps.clock.now(), id);
    const outgoing = deps.outbound.begin();
    await db.transaction(async (tx) => {
      await repo.updateTicket(tx, id, { protocol });
      const notice = `Seu protocolo de atendimento é: nº ${protocol}`;
      await outgoing.enqueue(tx, { ticket, body: notice, userId: actor.id, automation: "system" });
    });
    await outgoing.afterCommit();
    const url = (await getSettingValue(db, "protocolWebhookUrl")) ?? "";
    const allowPrivate = (await getSettingValue(db, "protocolWebhookAllowPrivate")) === "enabled";
    const webhook = await callProtocolWebhook(url, { usuario: contact.number, protocolo: protocol }, deps.logger, {
      allowPrivate,
    });
    const closed = await tickets.update(actor, id, {
      status: "closed",
      userId: actor.id,
      closingReasonId: choice.closingReasonId,
      closingValue: choice.closingValue,
    });
    return { protocol, webhook, ticket: closed };
  };
}
