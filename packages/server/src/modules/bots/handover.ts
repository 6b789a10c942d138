import { HANDOVER_VARIABLE, type HandoverInput } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { ScopedServices } from "../automation/scoped-services.js";
import { SYSTEM_ACTOR } from "../closing-reasons/api-close.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import { endSession } from "./bots.repo.js";

export { HANDOVER_VARIABLE };

/** A flow's `zapdesk_handover` value: "queue" / "queue:<id>", "agent:<id>" or "close"; anything else is no handover. */
export function parseHandover(value: string | undefined): HandoverInput | undefined {
  const text = value?.trim().toLowerCase();
  if (!text) return undefined;
  if (text === "close") return { to: "close" };
  if (text === "queue") return { to: "queue" };
  const match = /^(queue|agent):(\d{1,9})$/.exec(text);
  if (!match) return undefined;
  return match[1] === "queue" ? { to: "queue", queueId: Number(match[2]) } : { to: "agent", userId: Number(match[2]) };
}

/**
 * The bot lets go of a ticket, in the caller's transaction: its session ends (messages it had not
 * answered stay on the ticket for the agents) and the ticket goes where the handover says, through
 * the ticket service every click goes through (as the API's system actor): to a queue's waiting
 * list (its own by default), to an agent, or closed (a plain close: it was never an agent's). A target the ticket cannot take (an unknown
 * agent, a queue that requires a closing reason) falls back to the queue's waiting list.
 * Returns where it went, or undefined when no bot held the ticket.
 */
export async function handOver(
  tx: Db,
  services: ScopedServices,
  ticketId: number,
  target: HandoverInput,
  options: { ended?: boolean } = {},
): Promise<HandoverInput["to"] | undefined> {
  // The ticket before its session: the order the inbound roads and the ticket service take.
  const ticket = await ticketsRepo.findTicket(tx, ticketId, { lock: true });
  const session = options.ended ? undefined : await endSession(tx, ticketId);
  if (!options.ended && !session) return undefined;
  // Taken over meanwhile (an admin accepted it): the session just ends.
  if (ticket?.status !== "pending" || ticket.userId !== null) return undefined;
  const toQueue = async (queueId: number | null) => {
    if (ticket.status === "pending" && ticket.userId === null && ticket.queueId === queueId) {
      // Already waiting there: it now shows as an ordinary waiting ticket.
      await services.tickets.announce(ticketId);
    } else {
      await services.tickets.update(SYSTEM_ACTOR, ticketId, { status: "pending", queueId });
    }
    return "queue" as const;
  };
  try {
    if (target.to === "agent") {
      await services.tickets.update(SYSTEM_ACTOR, ticketId, { status: "open", userId: target.userId });
      return "agent";
    }
    if (target.to === "close") {
      // A waiting ticket no agent had: closed as it is (the ticket rules resolve open tickets only),
      // without the farewell, the satisfaction question or a closing reason, which are an agent's.
      await ticketsRepo.updateTicket(tx, ticketId, { status: "closed", unreadMessages: 0 });
      await services.tickets.announce(ticketId);
      return "close";
    }
    return await toQueue(target.queueId ?? ticket.queueId);
  } catch (error) {
    if (!(error instanceof AppError) || (target.to === "queue" && target.queueId === undefined)) throw error;
    return toQueue(ticket.queueId);
  }
}
