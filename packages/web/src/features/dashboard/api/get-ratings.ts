import { useQuery } from "@tanstack/react-query";
import type { RatingDashboard } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Issue 11 CSAT: the month's satisfaction figures over the tickets the user may see. */
export function useRatings(month: string) {
  return useQuery({
    queryKey: ["dashboard", "ratings", month],
    queryFn: () => api.get<RatingDashboard>("/dashboard/ratings", { month, tz: timeZone() }),
    // A manager opening the dashboard sees today's figures, not a copy from half a minute ago.
    refetchOnMount: "always",
  });
}
