import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";
import { findContactById } from "../contacts/contacts.repo.js";
import type { OutboundQueue } from "../messages/outbound-queue.js";
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
 * The protocol notice to an admin-configured webhook: http(s) only, no redirects
 * followed, a short timeout; a failure is logged and never blocks the close.
 */
export async function callProtocolWebhook(
  url: string,
  payload: { usuario: string; protocolo: string },
  logger: FastifyBaseLogger,
): Promise<WebhookOutcome> {
  if (!url) return "skipped";
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    logger.warn({ url }, "protocol webhook URL is not valid");
    return "failed";
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return "failed";
  try {
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) {
      logger.warn({ status: response.status }, "protocol webhook answered with an error");
      return "failed";
    }
    return "sent";
  } catch (error) {
    logger.warn({ err: error }, "protocol webhook failed");
    return "failed";
  }
}

/** POST /tickets/:id/protocol: a protocol number, the notice to the customer, the webhook, then close. */
export function createProtocolService(deps: {
  db: Db;
  tickets: TicketService;
  clock: Clock;
  logger: FastifyBaseLogger;
  outbound: OutboundQueue;
}) {
  const { db, tickets } = deps;
  return async function issueProtocol(actor: AuthUser, id: number) {
    const ticket = await tickets.accessible(actor, id);
    if (ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN", { message: "Only an open ticket gets a protocol" });
    const contact = await findContactById(db, ticket.contactId);
    if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
    const protocol = protocolNumber(deps.clock.now(), id);
    const outgoing = deps.outbound.begin();
    await db.transaction(async (tx) => {
      await repo.updateTicket(tx, id, { protocol });
      const notice = `Seu protocolo de atendimento é: nº ${protocol}`;
      await outgoing.enqueue(tx, { ticket, body: notice, userId: actor.id, fromBot: true });
    });
    await outgoing.afterCommit();
    const url = (await getSettingValue(db, "protocolWebhookUrl")) ?? "";
    const webhook = await callProtocolWebhook(url, { usuario: contact.number, protocolo: protocol }, deps.logger);
    const closed = await tickets.update(actor, id, { status: "closed", userId: actor.id });
    return { protocol, webhook, ticket: closed };
  };
}
