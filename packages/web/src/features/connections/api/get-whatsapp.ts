import { useQuery } from "@tanstack/react-query";
import type { Connection } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** One connection with its queues, read fresh when the edit modal opens. */
export function useWhatsapp(id: number | undefined) {
  return useQuery({
    queryKey: queryKeys.whatsapps.detail(id ?? 0),
    queryFn: () => api.get<Connection>(`/whatsapp/${id}`),
    enabled: !!id,
    staleTime: 0,
  });
}
