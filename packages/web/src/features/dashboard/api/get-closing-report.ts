import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ClosingReport } from "@zapdesk/core";
import { api, apiFetch } from "../../../lib/api-client";
import type { MetricsFilters } from "./get-metrics";

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** The metrics' filters as the query string the closing report and the tickets export read. */
function periodQuery(filters: MetricsFilters): Record<string, string> {
  return {
    from: filters.from,
    to: filters.to,
    tz: timeZone(),
    ...(filters.queueId ? { queueId: String(filters.queueId) } : {}),
    ...(filters.userId ? { userId: String(filters.userId) } : {}),
  };
}

/** Issue 23 §6: the period's closes with a reason, per reason, queue and agent. */
export function useClosingReport(filters: MetricsFilters) {
  return useQuery({
    queryKey: ["dashboard", "closingReasons", filters],
    queryFn: () => api.get<ClosingReport>("/dashboard/closing-reasons", periodQuery(filters)),
    placeholderData: keepPreviousData,
    refetchOnMount: "always",
  });
}

/** GET /tickets/export: the period's closed tickets (with their reasons) as a CSV file the browser saves. */
export async function downloadTicketsCsv(filters: MetricsFilters): Promise<void> {
  const response = await apiFetch(`/tickets/export?${new URLSearchParams(periodQuery(filters)).toString()}`);
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "tickets.csv";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
