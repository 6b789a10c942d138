import { useQuery } from "@tanstack/react-query";
import type { Setting } from "@zapdesk/core";
import { request } from "../api-client";
import { queryKeys } from "../query-keys";

/** userCreation, salesPageUrl, communityPageUrl: readable without a session (login, signup, embedded pages). */
export function usePublicSettings() {
  return useQuery({
    queryKey: queryKeys.publicSettings.all,
    queryFn: () => request<Setting[]>("/public-settings", { skipSessionHandling: true }),
  });
}

export function usePublicSetting(key: string): { value: string | undefined; isLoading: boolean } {
  const { data, isLoading } = usePublicSettings();
  return { value: data?.find((s) => s.key === key)?.value, isLoading };
}
