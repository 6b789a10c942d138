import type { Message, Ticket } from "@zapdesk/core";

export interface NotifyContext {
  userId: number;
  /** The ticket open in the ticket pane, if any. */
  openTicketId?: number;
  pageVisible: boolean;
}

/** Spec §6: unread customer messages of one's own or unassigned tickets, not groups, not the ticket in view. */
export function shouldNotify(message: Message, ticket: Ticket, context: NotifyContext): boolean {
  if (message.fromMe || message.read || ticket.isGroup) return false;
  if (ticket.userId !== null && ticket.userId !== context.userId) return false;
  return !(ticket.id === context.openTicketId && context.pageVisible);
}
