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

/**
 * Issue 23 §4: whether a ticket list leaves out the tickets a queue's bot holds — an agent's (not an
 * admin's) waiting list, or a list without a status; never a search, never the open or closed lists
 * (a bot holds waiting tickets only). One rule for the server's list query (`notBotHeld` in
 * tickets.repo.ts) and the web's live lists (`belongsInList`), so an event never shows what a reload hides.
 */
export function listLeavesOutBotHeld(viewer: { admin: boolean }, list: { status?: string; search?: string }): boolean {
  return !viewer.admin && !list.search && (list.status === undefined || list.status === "pending");
}

/** The ticket is held by a bot (`botHeld`, set by the server) and this list leaves such tickets out. */
export function hiddenWhileBotHolds(
  ticket: { botHeld?: boolean },
  viewer: { admin: boolean },
  list: { status?: string; search?: string },
): boolean {
  return ticket.botHeld === true && listLeavesOutBotHeld(viewer, list);
}
