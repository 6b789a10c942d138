import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ClosingReason, ClosingReasonInput, ClosingReasonUpdate } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

export const closingReasonKeys = { all: ["closingReasons"] as const };

/** Issue 23 §6: every closing reason, archived ones too (a small list: the admin page and the pickers read it). */
export function useClosingReasons() {
  return useQuery({
    queryKey: closingReasonKeys.all,
    queryFn: () => api.get<{ closingReasons: ClosingReason[] }>("/closing-reasons"),
    select: (d) => d.closingReasons,
  });
}

export function useSaveClosingReason() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ClosingReasonInput | ClosingReasonUpdate }) =>
      id ? api.put<ClosingReason>(`/closing-reasons/${id}`, input) : api.post<ClosingReason>("/closing-reasons", input),
    onSuccess: () => client.invalidateQueries({ queryKey: closingReasonKeys.all }),
    meta: { handlesErrors: true },
  });
}

export function useDeleteClosingReason() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/closing-reasons/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: closingReasonKeys.all }),
  });
}
