import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Setting } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Admin only: a new API token; the old one stops working at once. */
export const rotateApiToken = () => api.post<Setting>("/settings/userApiToken/rotate");

export function useRotateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: rotateApiToken,
    onSuccess: (setting) => {
      client.setQueryData<Setting[]>(queryKeys.settings.all, (list) => list?.map((s) => (s.key === setting.key ? setting : s)));
    },
  });
}
