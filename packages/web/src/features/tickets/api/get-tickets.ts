import { useInfiniteQuery } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { type TicketListParams, ticketKeys } from "./ticket-keys";

export interface TicketPage {
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
  /** Issue 24: a search's count stopped at the server's cap: there are more than `count`. */
  countCapped?: boolean;
}

export const getTickets = (params: TicketListParams, pageNumber: number) =>
  api.get<TicketPage>("/tickets", {
    status: params.status,
    searchParam: params.searchParam,
    showAll: params.showAll,
    queueIds: params.queueIds ? JSON.stringify(params.queueIds) : undefined,
    tagIds: params.tagIds?.length ? JSON.stringify(params.tagIds) : undefined,
    pageNumber,
    sort: params.sort,
    myCustomers: params.myCustomers || undefined,
  });

export function useTickets(params: TicketListParams, enabled = true) {
  return useInfiniteQuery({
    queryKey: ticketKeys.list(params),
    queryFn: ({ pageParam }) => getTickets(params, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
    // Realtime events keep the lists current; a remount must not throw that away.
    staleTime: Number.POSITIVE_INFINITY,
  });
}
