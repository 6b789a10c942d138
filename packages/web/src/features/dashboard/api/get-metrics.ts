import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Metrics } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export interface MetricsFilters {
  /** Inclusive local dates, yyyy-MM-dd. */
  from: string;
  to: string;
  queueId: number | null;
  userId: number | null;
}

/** Issue 13: service times of the period's tickets, computed by the server over the user's queues. */
export function useMetrics(filters: MetricsFilters) {
  return useQuery({
    queryKey: ["dashboard", "metrics", filters],
    queryFn: () =>
      api.get<Metrics>("/dashboard/metrics", {
        from: filters.from,
        to: filters.to,
        tz: timeZone(),
        ...(filters.queueId ? { queueId: String(filters.queueId) } : {}),
        ...(filters.userId ? { userId: String(filters.userId) } : {}),
      }),
    placeholderData: keepPreviousData,
    // A manager opening the dashboard sees today's figures, not a copy from half a minute ago.
    refetchOnMount: "always",
  });
}
