import { type QueryClient, useQuery } from "@tanstack/react-query";
import type { AgentLoad, RealtimePayloads, UserPresence } from "@zapdesk/core";
import { api } from "../../lib/api-client";
import { updateQueries } from "../../lib/query-updates";

export const presenceKey = ["presence"] as const;
export const agentsLoadKey = ["dashboard", "agents"] as const;

/** Issue 13: every user's presence and open tickets; kept live by the `presence` event. */
export function usePresence(enabled = true) {
  // Statuses stay live through events; open-ticket counts are fetched again whenever a screen shows them.
  return useQuery({
    queryKey: presenceKey,
    queryFn: () => api.get<UserPresence[]>("/users/presence"),
    enabled,
    refetchOnMount: "always",
  });
}

/** The dashboard's agents card (admins: everyone; agents: their queues' colleagues). */
export function useAgentsLoad() {
  return useQuery({
    queryKey: agentsLoadKey,
    queryFn: () => api.get<AgentLoad[]>("/dashboard/agents"),
    refetchOnMount: "always",
  });
}

/** A user's presence changed: both lists show it at once (no refetch). */
export function applyPresenceEvent(client: QueryClient, event: RealtimePayloads["presence"]): void {
  const patch = <T extends { userId: number; status: string }>(rows: T[]) =>
    rows.map((row) => (row.userId === event.userId ? { ...row, status: event.status } : row));
  updateQueries<UserPresence[]>(client, { queryKey: presenceKey, exact: true }, patch);
  updateQueries<AgentLoad[]>(client, { queryKey: agentsLoadKey, exact: true }, patch);
  // Someone new (not in the cached list yet): fetch again.
  const known = client.getQueryData<UserPresence[]>(presenceKey);
  if (known && !known.some((row) => row.userId === event.userId)) client.invalidateQueries({ queryKey: presenceKey });
}
