import { useQuery } from "@tanstack/react-query";
import type { Connection } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function useWhatsapps() {
  return useQuery({ queryKey: queryKeys.whatsapps.all, queryFn: () => api.get<Connection[]>("/whatsapp") });
}
