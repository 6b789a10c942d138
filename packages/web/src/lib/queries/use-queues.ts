import { useQuery } from "@tanstack/react-query";
import type { Queue } from "@zapdesk/core";
import { api } from "../api-client";
import { queryKeys } from "../query-keys";

/** Queues are read by several screens (users, connections, queues): shared here, not in one feature. */
export function useQueues() {
  return useQuery({ queryKey: queryKeys.queues.all, queryFn: () => api.get<Queue[]>("/queue") });
}
