import { useQuery } from "@tanstack/react-query";
import { ticketKeys } from "../api/ticket-keys";

/**
 * Whether the ticket left this user's hands while they had it (transferred, out of reach).
 * Only realtime events set it, so the query never fetches, and a reconnect's refetch leaves it be.
 */
export function useTicketMovedAway(ticketId: number): boolean {
  const { data } = useQuery({
    queryKey: ticketKeys.movedAway(ticketId),
    queryFn: () => false,
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data === true;
}
