import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Contact, Tag, TagInput, Ticket } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { queryKeys } from "../../../lib/query-keys";
import { applyTagEvent } from "../../../lib/tag-events";
import { listViewer, upsertTicket } from "../../tickets/utils/ticket-list-cache";

/** Every tag (a small list): the admin screen, pickers, the list filter and the board read it. */
export function useTags() {
  return useQuery({ queryKey: queryKeys.tags.all, queryFn: () => api.get<{ tags: Tag[] }>("/tags"), select: (d) => d.tags });
}

export function useSaveTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: TagInput }) =>
      id ? api.put<Tag>(`/tags/${id}`, input) : api.post<Tag>("/tags", input),
    onSuccess: (tag, { id }) => applyTagEvent(client, { action: id ? "update" : "create", tag }),
    meta: { handlesErrors: true },
  });
}

export function useDeleteTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/tags/${id}`),
    onSuccess: (_data, id) => applyTagEvent(client, { action: "delete", tagId: id }),
  });
}

export const setTicketTags = (ticketId: number, tagIds: number[]) => api.put<Ticket>(`/tickets/${ticketId}`, { tagIds });

/** A ticket's tags, the whole set; the lists and the open ticket follow at once (the event confirms). */
export function useSetTicketTags() {
  const client = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: ({ ticketId, tagIds }: { ticketId: number; tagIds: number[] }) => setTicketTags(ticketId, tagIds),
    onSuccess: (ticket) => {
      if (user) upsertTicket(client, ticket, listViewer(user));
    },
  });
}

export function useSetContactTags() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ contactId, tagIds }: { contactId: number; tagIds: number[] }) =>
      api.put<Contact>(`/contacts/${contactId}`, { tagIds }),
    onSuccess: (contact) => client.setQueryData(queryKeys.contacts.detail(contact.id), contact),
  });
}
