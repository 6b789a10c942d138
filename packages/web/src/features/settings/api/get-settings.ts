import { useQuery } from "@tanstack/react-query";
import type { Setting } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function useSettings() {
  return useQuery({ queryKey: queryKeys.settings.all, queryFn: () => api.get<Setting[]>("/settings") });
}
