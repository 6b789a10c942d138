import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Macro, MacroInput, MacroRunResult, MacroUpdate, Tag, User, Webhook } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const macroKeys = { all: ["macros"] as const };

/** Issue 23 §2: the shared macros and the signed-in user's own. */
export function useMacros(enabled = true) {
  return useQuery({
    enabled,
    queryKey: macroKeys.all,
    queryFn: () => api.get<{ macros: Macro[] }>("/macros"),
    select: (d) => d.macros,
  });
}

export function useSaveMacro() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: MacroInput | MacroUpdate }) =>
      id ? api.put<Macro>(`/macros/${id}`, input) : api.post<Macro>("/macros", input),
    onSuccess: () => client.invalidateQueries({ queryKey: macroKeys.all }),
    meta: { handlesErrors: true },
  });
}

export function useDeleteMacro() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/macros/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: macroKeys.all }),
  });
}

/** Runs a macro on a ticket; the ticket's own realtime events update the lists and the chat. */
export function useRunMacro() {
  return useMutation({
    mutationFn: ({ ticketId, macroId }: { ticketId: number; macroId: number }) =>
      api.post<MacroRunResult>(`/tickets/${ticketId}/macros/${macroId}/run`, {}),
  });
}

/** What the action editor offers: users (the transfer list's), tags, and the webhooks for whom manages them. */
export function useActionChoices(withWebhooks: boolean) {
  const users = useQuery({
    queryKey: ["macros", "users"],
    queryFn: () => api.get<{ users: User[] }>("/users", { searchParam: "" }),
    select: (d) => d.users,
  });
  const tags = useQuery({
    queryKey: queryKeys.tags.all,
    queryFn: () => api.get<{ tags: Tag[] }>("/tags"),
    select: (d) => d.tags,
  });
  const webhooks = useQuery({
    queryKey: ["macros", "webhooks"],
    queryFn: () => api.get<{ webhooks: Webhook[] }>("/webhooks"),
    select: (d) => d.webhooks,
    enabled: withWebhooks,
  });
  return { users: users.data ?? [], tags: tags.data ?? [], webhooks: webhooks.data ?? [] };
}
