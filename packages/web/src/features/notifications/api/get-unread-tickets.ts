import { useQuery } from "@tanstack/react-query";
import type { Ticket } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

export const notificationKeys = { unread: ["notifications", "unread"] as const };

/** The user's own and unassigned tickets with unread messages (the bell's list). */
export const getUnreadTickets = async () =>
  (await api.get<{ tickets: Ticket[] }>("/tickets", { withUnreadMessages: true, showAll: false })).tickets;

export function useUnreadTickets() {
  return useQuery({ queryKey: notificationKeys.unread, queryFn: getUnreadTickets, staleTime: Number.POSITIVE_INFINITY });
}
