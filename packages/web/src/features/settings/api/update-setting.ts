import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Setting } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const updateSetting = (key: string, value: string) => api.put<Setting>(`/settings/${encodeURIComponent(key)}`, { value });

export function useUpdateSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) => updateSetting(key, value),
    onSuccess: (setting) => {
      const replace = (list: Setting[] | undefined) => list?.map((s) => (s.key === setting.key ? setting : s));
      client.setQueryData<Setting[]>(queryKeys.settings.all, (list) =>
        list?.some((s) => s.key === setting.key) ? replace(list) : list && [...list, setting],
      );
      client.setQueryData<Setting[]>(queryKeys.publicSettings.all, replace);
    },
  });
}
