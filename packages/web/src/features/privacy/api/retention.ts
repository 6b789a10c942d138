import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LegalHold, RetentionCounts, RetentionOverview, RetentionPolicy } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

export const retentionKeys = {
  overview: ["retention"] as const,
  holds: (target: HoldTarget) => ["legal-holds", target] as const,
};

/** The contact or the ticket a legal hold is on. */
export type HoldTarget = { contactId: number } | { ticketId: number };

/** GET /retention: the default policy, each queue's own one, and the last sweep. */
export function useRetention(enabled = true) {
  return useQuery({ queryKey: retentionKeys.overview, queryFn: () => api.get<RetentionOverview>("/retention"), enabled });
}

/** PUT /retention/policies: the default policy (queueId null) or a queue's own one. */
export function useSavePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (policy: RetentionPolicy) => api.put<RetentionPolicy>("/retention/policies", policy),
    onSuccess: () => client.invalidateQueries({ queryKey: retentionKeys.overview }),
  });
}

/** DELETE /retention/policies/:queueId: the queue follows the default again. */
export function useResetPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (queueId: number) => api.delete<{ message: string }>(`/retention/policies/${queueId}`),
    onSuccess: () => client.invalidateQueries({ queryKey: retentionKeys.overview }),
  });
}

/** POST /retention/preview: what a policy would remove today (nothing is saved). */
export function usePreviewPolicy() {
  return useMutation({ mutationFn: (policy: RetentionPolicy) => api.post<RetentionCounts>("/retention/preview", policy) });
}

/** POST /retention/run: the sweep, now. */
export function useRunRetention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<RetentionCounts>("/retention/run"),
    onSuccess: () => client.invalidateQueries({ queryKey: retentionKeys.overview }),
  });
}

/** GET /legal-holds?contactId|ticketId: the hold on one contact or ticket, if any. */
export function useLegalHolds(target: HoldTarget, enabled = true) {
  return useQuery({
    queryKey: retentionKeys.holds(target),
    queryFn: () => api.get<{ holds: LegalHold[] }>("/legal-holds", target),
    enabled,
  });
}

export function usePlaceHold(target: HoldTarget) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => api.post<LegalHold>("/legal-holds", { ...target, reason }),
    onSuccess: () => client.invalidateQueries({ queryKey: retentionKeys.holds(target) }),
  });
}

export function useReleaseHold(target: HoldTarget) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/legal-holds/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: retentionKeys.holds(target) }),
  });
}
