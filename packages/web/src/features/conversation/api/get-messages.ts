import { useInfiniteQuery } from "@tanstack/react-query";
import type { Message, Ticket } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { messageKeys } from "./message-keys";

export interface MessagePage {
  messages: Message[];
  ticket: Ticket;
  count: number;
  /** Older messages exist beyond this page. */
  hasMore: boolean;
  /** Newer messages exist beyond this page (pages opened `around` a message). */
  hasNewer?: boolean;
  /** The page answered: the one asked for, or the one holding `around`. */
  pageNumber?: number;
}

/** A page by number, or the page that holds a given message. */
export type MessagePageParam = number | { around: number };

/** Page 1 holds the newest 20 and each page is chronological; older pages are fetched upwards. */
export const getMessages = (ticketId: number, page: MessagePageParam) =>
  typeof page === "number"
    ? api.get<MessagePage>(`/messages/${ticketId}`, { pageNumber: page })
    : api.get<MessagePage>(`/messages/${ticketId}`, { pageNumber: 1, around: page.around });

const numberOf = (page: MessagePage, param: MessagePageParam) => page.pageNumber ?? (typeof param === "number" ? param : 1);

/**
 * The conversation, newest page first. Opened `around` a message, it starts at the page holding
 * it: older pages load upwards as usual and newer ones (previous page numbers) downwards.
 */
export function useMessages(ticketId: number, around?: number) {
  return useInfiniteQuery({
    queryKey: around ? messageKeys.around(ticketId, around) : messageKeys.list(ticketId),
    queryFn: ({ pageParam }) => getMessages(ticketId, pageParam),
    initialPageParam: (around ? { around } : 1) as MessagePageParam,
    getNextPageParam: (last, _pages, param) => (last.hasMore ? numberOf(last, param) + 1 : undefined),
    getPreviousPageParam: (first, _pages, param) => {
      const number = numberOf(first, param);
      return first.hasNewer && number > 1 ? number - 1 : undefined;
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
  });
}

/** Oldest first, across pages fetched newest first; a message on two pages (they shift as new ones come) once. */
export const chronological = (pages: MessagePage[] | undefined): Message[] => {
  if (!pages) return [];
  const seen = new Set<number>();
  return [...pages]
    .reverse()
    .flatMap((page) => page.messages)
    .filter((message) => !seen.has(message.id) && !!seen.add(message.id));
};
