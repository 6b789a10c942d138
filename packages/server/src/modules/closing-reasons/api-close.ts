import type { ClosingChoice, Ticket } from "@zapdesk/core";
import type { TicketService } from "../tickets/tickets.service.js";
import type { AuthUser } from "../users/users.repo.js";

/**
 * Who acts for the API token (and, later, for an automation rule): it reaches every ticket like an
 * admin, and a close it makes belongs to the ticket's agent (no user of its own).
 */
export const SYSTEM_ACTOR: AuthUser = { id: 0, name: "API", email: "", profile: "admin", queueIds: [] };

/**
 * Issue 23 §6: close a ticket with a reason from outside (POST /api/tickets/:id/close with the
 * userApiToken), through the one road every close takes (`tickets.update`: the queue's rule, the
 * farewell, CSAT, realtime). An open ticket is resolved; a closed one has its reason corrected.
 */
export function createApiClose(deps: { tickets: TicketService }) {
  return async function apiClose(id: number, choice: ClosingChoice): Promise<Ticket> {
    const ticket = await deps.tickets.accessible(SYSTEM_ACTOR, id);
    const change = { closingReasonId: choice.closingReasonId, closingValue: choice.closingValue };
    if (ticket.status === "closed") return deps.tickets.update(SYSTEM_ACTOR, id, change);
    return deps.tickets.update(SYSTEM_ACTOR, id, { status: "closed", ...change });
  };
}

export type ApiClose = ReturnType<typeof createApiClose>;
