import { type ConnectionProvider, isChoosingQueue, type Ticket, type TicketStatus } from "@zapdesk/core";
import type { JoinedTicket } from "./tickets.repo.js";

export function presentTicket(row: JoinedTicket): Ticket {
  const { ticket } = row;
  return {
    id: ticket.id,
    status: ticket.status as TicketStatus,
    unreadMessages: ticket.unreadMessages,
    lastMessage: ticket.lastMessage,
    isGroup: ticket.isGroup,
    userId: ticket.userId,
    queueId: ticket.queueId,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
    contact: row.contact,
    queue: row.queue,
    user: row.user,
    whatsapp: row.whatsapp ? { ...row.whatsapp, provider: row.whatsapp.provider as ConnectionProvider } : null,
    lastInboundAt: ticket.lastInboundAt?.toISOString() ?? null,
    waitingSince: ticket.waitingSince?.toISOString() ?? null,
    rating: ticket.rating ?? null,
    tags: row.tags,
    choosingQueue: isChoosingQueue(ticket),
    botHeld: row.botHeld,
    closingReason:
      row.closingReason && ticket.closingAt
        ? {
            ...row.closingReason,
            value: ticket.closingValue === null ? null : Number(ticket.closingValue),
            at: ticket.closingAt.toISOString(),
          }
        : null,
    ...(row.matchedMessageId !== undefined && { matchedMessageId: row.matchedMessageId }),
  };
}
