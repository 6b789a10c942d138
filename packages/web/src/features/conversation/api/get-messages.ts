import { useInfiniteQuery } from "@tanstack/react-query";
import type { Message, Ticket } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { messageKeys } from "./message-keys";

export interface MessagePage {
  messages: Message[];
  ticket: Ticket;
  count: number;
  hasMore: boolean;
}

/** Page 1 holds the newest 20 and each page is chronological; older pages are fetched upwards. */
export const getMessages = (ticketId: number, pageNumber: number) =>
  api.get<MessagePage>(`/messages/${ticketId}`, { pageNumber });

export function useMessages(ticketId: number) {
  return useInfiniteQuery({
    queryKey: messageKeys.list(ticketId),
    queryFn: ({ pageParam }) => getMessages(ticketId, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
  });
}

/** Oldest first, across pages fetched newest first. */
export const chronological = (pages: MessagePage[] | undefined): Message[] =>
  pages ? [...pages].reverse().flatMap((page) => page.messages) : [];
