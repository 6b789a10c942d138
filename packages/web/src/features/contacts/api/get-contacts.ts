import { useQuery } from "@tanstack/react-query";
import type { Contact } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { usePagedList } from "../../../lib/paged-list";
import { queryKeys } from "../../../lib/query-keys";

export const useContacts = (search: string) =>
  usePagedList<"contacts", Contact>(queryKeys.contacts.list(search), "/contacts", search);

/** Lists may omit extraInfo (wire.md): the edit modal reads the single contact. */
export function useContact(id: number | undefined) {
  return useQuery({
    queryKey: queryKeys.contacts.detail(id ?? 0),
    queryFn: () => api.get<Contact>(`/contacts/${id}`),
    enabled: !!id,
  });
}
