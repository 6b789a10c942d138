/**
 * Issue 13: a ticket "choosing a queue" is still at the greeting menu: no queue, no agent, and the
 * menu went to the customer (its connection has two or more queues). Such tickets are listed apart,
 * and agents see them only when the setting `showChoosingQueue` is enabled.
 */
export function isChoosingQueue(ticket: {
  queueId: number | null;
  userId: number | null;
  menuSentAt?: Date | string | null;
  choosingQueue?: boolean;
}): boolean {
  if (ticket.queueId !== null || ticket.userId !== null) return false;
  if (ticket.choosingQueue !== undefined) return ticket.choosingQueue;
  return ticket.menuSentAt !== undefined && ticket.menuSentAt !== null;
}
