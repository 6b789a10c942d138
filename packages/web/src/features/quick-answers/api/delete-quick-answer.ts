import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { removeFromPages } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const deleteQuickAnswer = (id: number) => api.delete<{ message: string }>(`/quickAnswers/${id}`);

export function useDeleteQuickAnswer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteQuickAnswer,
    onSuccess: (_data, id) => removeFromPages(client, [...queryKeys.quickAnswers.all, "list"], "quickAnswers", id),
  });
}
