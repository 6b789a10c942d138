import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Contact } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { api } from "../../../lib/api-client";
import { removeFromPages, textMatches, upsertInPages } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";
import { toast } from "../../../lib/toast";
import { useDebounce } from "../../../lib/use-debounce";

/** Issue 18: the duplicate is folded into the contact that stays (admins). */
export const mergeContact = (keepId: number, duplicateId: number) =>
  api.post<Contact>(`/contacts/${keepId}/merge`, { duplicateId });

/** The toast is the mutation's own, so it shows even when the dialog that asked has unmounted (see useEraseContact). */
export function useMergeContact() {
  const client = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: ({ keepId, duplicateId }: { keepId: number; duplicateId: number }) => mergeContact(keepId, duplicateId),
    onSuccess: (kept, { duplicateId }) => {
      removeFromPages(client, [...queryKeys.contacts.all, "list"], "contacts", duplicateId);
      client.setQueryData(queryKeys.contacts.detail(kept.id), kept);
      upsertInPages(client, [...queryKeys.contacts.all, "list"], "contacts", kept, (c, s) =>
        textMatches(s, c.name, c.number, c.email),
      );
      toast.success(t("contacts.merge.done", { name: kept.name }));
    },
  });
}

/** The contacts a search names (from 3 characters, 500 ms after typing stops), for picking the one that stays. */
export function useContactSearch(text: string) {
  const search = useDebounce(text.trim().toLowerCase());
  const enabled = search.length >= 3;
  const query = useQuery({
    queryKey: [...queryKeys.contacts.all, "merge-lookup", search],
    queryFn: async () => (await api.get<{ contacts: Contact[] }>("/contacts", { searchParam: search })).contacts,
    enabled,
  });
  return { options: enabled ? (query.data ?? []) : [], loading: enabled && query.isFetching };
}
