import { useQuery } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

export const notificationKeys = { unread: ["notifications", "unread"] as const };

/** The bell: the first page of unread tickets, and how many there are in all (the server's `count`). */
export interface UnreadTickets {
  tickets: Ticket[];
  count: number;
}

/** The user's own and unassigned tickets with unread messages (the bell's list). */
export async function getUnreadTickets(): Promise<UnreadTickets> {
  const page = await api.get<{ tickets: Ticket[]; count: number }>("/tickets", { withUnreadMessages: true, showAll: false });
  return { tickets: page.tickets, count: page.count };
}

export function useUnreadTickets() {
  return useQuery({ queryKey: notificationKeys.unread, queryFn: getUnreadTickets, staleTime: Number.POSITIVE_INFINITY });
}
