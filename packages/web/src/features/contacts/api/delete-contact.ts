import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { removeFromPages } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const deleteContact = (id: number) => api.delete<{ message: string }>(`/contacts/${id}`);

export function useDeleteContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteContact,
    onSuccess: (_data, id) => removeFromPages(client, [...queryKeys.contacts.all, "list"], "contacts", id),
  });
}
