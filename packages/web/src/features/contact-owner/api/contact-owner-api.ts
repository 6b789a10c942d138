import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Contact, UserPresence } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { api } from "../../../lib/api-client";
import type { Page } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";
import { toast } from "../../../lib/toast";

/** The contacts page's owner filter: everyone's, the user's own, those without an owner, or one agent's. */
export type OwnerFilter = "" | "me" | "none" | `${number}`;

/**
 * The contacts filtered by owner live under their own key: a contact event cannot tell whether a
 * contact belongs in them, so the realtime layer refetches them (`ownedContactsKey`).
 */
export const ownedContactsKey = ["contacts", "owned"] as const;

/** The contacts page's list: the plain list (kept live by events) or, with a filter, the owner's. */
export function useContactsPage(search: string, owner: OwnerFilter) {
  return useInfiniteQuery({
    queryKey: owner ? [...ownedContactsKey, search, owner] : queryKeys.contacts.list(search),
    queryFn: ({ pageParam }) =>
      api.get<Page<"contacts", Contact>>("/contacts", { searchParam: search, pageNumber: pageParam, owner: owner || undefined }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    gcTime: 0,
  });
}

/** Everyone who may own a contact, with their names (the same list and key as the presence panel). */
export function usePeople() {
  return useQuery({
    queryKey: ["presence"],
    queryFn: () => api.get<UserPresence[]>("/users/presence"),
    select: (people) => people.map((p) => ({ id: p.userId, name: p.name })),
  });
}

/**
 * Sets a contact's owner and says so. The toast is the mutation's own, not the caller's: the field
 * that asked is often a row of a list the change removes it from ("without an owner"), and a caller's
 * callbacks are dropped once it has unmounted (CI saw the toast lost that way).
 */
export function useSetContactOwner() {
  const client = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: ({ contactId, userId }: { contactId: number; userId: number | null }) =>
      api.put<Contact>(`/contacts/${contactId}/owner`, { userId }),
    onSuccess: (_contact, { contactId }) => {
      toast.success(t("contactOwner.saved"), `contact-owner-${contactId}`);
      return client.invalidateQueries({ queryKey: ownedContactsKey });
    },
  });
}
