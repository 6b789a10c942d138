import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { QuickAnswer, QuickAnswerInput } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { textMatches, upsertInPages } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const createQuickAnswer = (input: QuickAnswerInput) => api.post<QuickAnswer>("/quickAnswers", input);
export const updateQuickAnswer = (id: number, input: QuickAnswerInput) => api.put<QuickAnswer>(`/quickAnswers/${id}`, input);

export function useSaveQuickAnswer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: QuickAnswerInput }) =>
      id ? updateQuickAnswer(id, input) : createQuickAnswer(input),
    onSuccess: (answer) =>
      upsertInPages(client, [...queryKeys.quickAnswers.all, "list"], "quickAnswers", answer, (q, s) =>
        textMatches(s, q.shortcut, q.message),
      ),
    meta: { handlesErrors: true },
  });
}
