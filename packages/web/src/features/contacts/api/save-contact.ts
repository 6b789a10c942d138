import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Contact, ContactInput } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { textMatches, upsertInPages } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const createContact = (input: ContactInput) => api.post<Contact>("/contacts", input);
export const updateContact = (id: number, input: ContactInput) => api.put<Contact>(`/contacts/${id}`, input);

export function useSaveContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ContactInput }) => (id ? updateContact(id, input) : createContact(input)),
    onSuccess: (contact) => {
      client.setQueryData(queryKeys.contacts.detail(contact.id), contact);
      upsertInPages(client, [...queryKeys.contacts.all, "list"], "contacts", contact, (c, s) =>
        textMatches(s, c.name, c.number, c.email),
      );
    },
    meta: { handlesErrors: true },
  });
}
