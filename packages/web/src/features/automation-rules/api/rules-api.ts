import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Rule, RuleDefinitionInput, RuleDryRun, RuleInput, RuleLog } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

export const ruleKeys = { all: ["automationRules"] as const };

/** Issue 23 §1: the automation rules (admins). */
export function useRules() {
  return useQuery({
    queryKey: ruleKeys.all,
    queryFn: () => api.get<{ rules: Rule[] }>("/automation-rules"),
    select: (d) => d.rules,
  });
}

export function useSaveRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: RuleInput }) =>
      id ? api.put<Rule>(`/automation-rules/${id}`, input) : api.post<Rule>("/automation-rules", input),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.all }),
    meta: { handlesErrors: true },
  });
}

export function useEnableRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      api.post<Rule>(`/automation-rules/${id}/enable`, { enabled }),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.all }),
  });
}

export function useDeleteRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/automation-rules/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.all }),
  });
}

export function useRuleLog(id: number | null, pageNumber: number) {
  return useQuery({
    enabled: id !== null,
    queryKey: [...ruleKeys.all, "log", id, pageNumber],
    queryFn: () => api.get<RuleLog>(`/automation-rules/${id}/log`, { pageNumber: String(pageNumber) }),
  });
}

/** What a definition would have done over the last 7 days (writes nothing). */
export function useDryRun() {
  return useMutation({
    mutationFn: (definition: RuleDefinitionInput) => api.post<RuleDryRun>("/automation-rules/dry-run", definition),
    meta: { handlesErrors: true },
  });
}
