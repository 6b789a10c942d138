import { useQuery } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { ticketKeys } from "./ticket-keys";

/** Reading a ticket also marks its messages read on the server. */
export const getTicket = (id: number) => api.get<Ticket>(`/tickets/${id}`);

export function useTicket(id: number | undefined) {
  return useQuery({
    queryKey: ticketKeys.detail(id ?? 0),
    queryFn: () => getTicket(id!),
    enabled: !!id,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
