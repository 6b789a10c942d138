import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Queue, QueueInput } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { upsertInArray } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const createQueue = (input: QueueInput) => api.post<Queue>("/queue", input);
export const updateQueue = (id: number, input: QueueInput) => api.put<Queue>(`/queue/${id}`, input);

export function useSaveQueue() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: QueueInput }) => (id ? updateQueue(id, input) : createQueue(input)),
    onSuccess: (queue) => upsertInArray(client, queryKeys.queues.all, queue),
    meta: { handlesErrors: true },
  });
}
