import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ConsentConfig, ConsentConfigInput, ConsentConfigUpdate, ConsentSettings, ContactConsent } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

export const consentKeys = {
  settings: ["consentSettings"] as const,
  contact: (contactId: number) => ["contactConsent", contactId] as const,
};

/** GET /contacts/:id/consent: the contact's records (newest first) and whether they opted out. */
export function useContactConsent(contactId: number) {
  return useQuery({
    queryKey: consentKeys.contact(contactId),
    queryFn: () => api.get<ContactConsent>(`/contacts/${contactId}/consent`),
  });
}

/** GET /consent/settings (admins): the opt-out words and every consent message. */
export function useConsentSettings(enabled = true) {
  return useQuery({ queryKey: consentKeys.settings, queryFn: () => api.get<ConsentSettings>("/consent/settings"), enabled });
}

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: consentKeys.settings });
}

/** PUT /consent/opt-out-words. */
export function useSaveOptOutWords() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (words: string[]) => api.put<ConsentSettings>("/consent/opt-out-words", { words }),
    onSuccess: refresh,
  });
}

/** POST /consent/configs, or PUT /consent/configs/:id when the scope has one. */
export function useSaveConsentConfig() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { id?: number; create: ConsentConfigInput; update: ConsentConfigUpdate }) =>
      input.id === undefined
        ? api.post<ConsentConfig>("/consent/configs", input.create)
        : api.put<ConsentConfig>(`/consent/configs/${input.id}`, input.update),
    onSuccess: refresh,
  });
}

/** DELETE /consent/configs/:id. */
export function useDeleteConsentConfig() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/consent/configs/${id}`),
    onSuccess: refresh,
  });
}
