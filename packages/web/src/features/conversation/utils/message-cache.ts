import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Message } from "@zapdesk/core";
import type { MessagePage } from "../api/get-messages";
import { messageKeys } from "../api/message-keys";

/** A new message joins the newest page; a known one is replaced where it is (acks, deletes, edits). */
export function upsertMessage(client: QueryClient, message: Message): void {
  client.setQueryData<InfiniteData<MessagePage>>(messageKeys.list(message.ticketId), (data) => {
    if (!data?.pages.length) return data;
    const present = data.pages.some((page) => page.messages.some((m) => m.id === message.id));
    if (present) {
      return {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          messages: page.messages.map((m) => (m.id === message.id ? message : m)),
        })),
      };
    }
    const [newest, ...older] = data.pages;
    const messages = [...newest.messages, message].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
    return { ...data, pages: [{ ...newest, messages, count: newest.count + 1 }, ...older] };
  });
}
