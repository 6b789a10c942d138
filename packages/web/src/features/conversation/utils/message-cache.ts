import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Message } from "@zapdesk/core";
import { updateQueries } from "../../../lib/query-updates";
import type { MessagePage } from "../api/get-messages";
import { messageKeys } from "../api/message-keys";

/**
 * A new message joins the newest page (once that is the live end); a known one is replaced where it is (acks, deletes, edits),
 * unless the copy in hand is newer: a send's answer can arrive after the realtime event of the
 * ack that followed it, and must not put the clock back.
 */
export function upsertMessage(client: QueryClient, message: Message): void {
  // Every view of the ticket's conversation: the live one and one opened around a searched message.
  // A view being fetched gets the message again when its answer lands (lib/query-updates.ts).
  updateQueries<InfiniteData<MessagePage>>(client, { queryKey: messageKeys.list(message.ticketId) }, (data) => {
    if (!data.pages?.length) return data;
    const known = data.pages.flatMap((page) => page.messages).find((m) => m.id === message.id);
    if (known) {
      if (known.updatedAt > message.updatedAt) return data;
      return {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          messages: page.messages.map((m) => (m.id === message.id ? message : m)),
        })),
      };
    }
    const [newest, ...older] = data.pages;
    // A view that has not reached the live end yet gets it when scrolled down, not as a gap.
    if (newest.hasNewer) return data;
    const messages = [...newest.messages, message].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
    return { ...data, pages: [{ ...newest, messages, count: newest.count + 1 }, ...older] };
  });
}

/**
 * Issue 22 §1: a retention sweep removed the ticket's messages (or their files): every view of its
 * conversation is refetched (the open one at once, the others when shown), one event for the whole
 * ticket however many messages went.
 */
export function messagesRemoved(client: QueryClient, ticketId: number): Promise<void> {
  return client.invalidateQueries({ queryKey: messageKeys.list(ticketId) });
}
