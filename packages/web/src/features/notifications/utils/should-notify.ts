import { hiddenWhileBotHolds, type Message, type Ticket } from "@zapdesk/core";

export interface NotifyContext {
  userId: number;
  /** Admins see the tickets a queue's bot holds (issue 23 §4); agents hear of them once the bot hands over. */
  admin: boolean;
  /** The ticket open in the ticket pane, if any. */
  openTicketId?: number;
  pageVisible: boolean;
}

/**
 * Spec §6: unread customer messages of one's own or unassigned tickets, not groups, not the ticket in view.
 * Issue 23 §4: not a ticket a bot holds, for an agent (the bell lists what the server's list without a
 * status lists, which leaves those out).
 */
export function shouldNotify(message: Message, ticket: Ticket, context: NotifyContext): boolean {
  if (message.fromMe || message.read || ticket.isGroup) return false;
  if (hiddenWhileBotHolds(ticket, context, {})) return false;
  if (ticket.userId !== null && ticket.userId !== context.userId) return false;
  return !(ticket.id === context.openTicketId && context.pageVisible);
}
