import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Queue } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { removeFromArray } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const deleteQueue = (id: number) => api.delete<{ message: string }>(`/queue/${id}`);

export function useDeleteQueue() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteQueue,
    onSuccess: (_data, id) => removeFromArray<Queue>(client, queryKeys.queues.all, id),
  });
}
