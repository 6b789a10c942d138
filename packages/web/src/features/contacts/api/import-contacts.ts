import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** POST /contacts/import: reads the phone's contacts through the default connection (no body). */
export const importContacts = () => api.post<{ imported: number; total: number }>("/contacts/import");

export function useImportContacts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importContacts,
    // The spec reloads the page afterwards; refetching the lists is the same without losing state.
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.contacts.all }),
  });
}
