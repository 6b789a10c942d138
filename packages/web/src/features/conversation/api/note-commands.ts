import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Mentionable, Message } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { upsertMessage } from "../utils/message-cache";

/** A private note (issue 11): `POST /messages/:ticketId { body, isNote: true, mentions }`, never sent to the customer. */
export const sendNote = (ticketId: number, input: { body: string; mentions: number[] }) =>
  api.post<Message>(`/messages/${ticketId}`, { body: input.body, isNote: true, mentions: input.mentions });

export function useSendNote(ticketId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { body: string; mentions: number[] }) => sendNote(ticketId, input),
    onSuccess: (message) => upsertMessage(client, message),
  });
}

/** Colleagues who may see the ticket, for the @ picker. */
export const searchMentionable = async (ticketId: number, search: string) =>
  (await api.get<{ users: Mentionable[] }>(`/notes/${ticketId}/mentionable`, { searchParam: search })).users;
