import { useQuery } from "@tanstack/react-query";
import type { Dashboard } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** One aggregation from the server: counts over the user's queues, not a page of tickets. */
export function useDashboard(month: string) {
  return useQuery({
    queryKey: ["dashboard", month],
    queryFn: () => api.get<Dashboard>("/dashboard", { month, tz: timeZone() }),
    // A manager opening the dashboard sees today's figures, not a copy from half a minute ago.
    refetchOnMount: "always",
  });
}

export const currentMonth = (now = new Date()) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}`;
