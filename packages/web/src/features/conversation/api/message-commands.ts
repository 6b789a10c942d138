import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Contact, Message, QuickAnswer, Ticket } from "@zapdesk/core";
import { api, apiFetch } from "../../../lib/api-client";
import { upsertMessage } from "../utils/message-cache";

export interface SendInput {
  body: string;
  quotedMsgId?: number;
  files?: File[];
  isVoice?: boolean;
}

/** JSON for text, multipart (`medias`, `body`, `quotedMsgId`, `isVoice`) when files go along. */
export async function sendMessage(ticketId: number, input: SendInput): Promise<Message> {
  if (!input.files?.length) {
    return api.post<Message>(`/messages/${ticketId}`, {
      body: input.body,
      quotedMsg: input.quotedMsgId ? { id: input.quotedMsgId } : undefined,
    });
  }
  const form = new FormData();
  for (const file of input.files) form.append("medias", file, file.name);
  form.append("body", input.body);
  if (input.quotedMsgId) form.append("quotedMsgId", String(input.quotedMsgId));
  if (input.isVoice) form.append("isVoice", "true");
  const response = await apiFetch(`/messages/${ticketId}`, { method: "POST", body: form });
  return (await response.json()) as Message;
}

export function useSendMessage(ticketId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SendInput) => sendMessage(ticketId, input),
    onSuccess: (message) => upsertMessage(client, message),
  });
}

export function useDeleteMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<Message>(`/messages/${id}`),
    onSuccess: (message) => {
      if (message && typeof message === "object" && "id" in message) upsertMessage(client, message);
    },
  });
}

export const searchQuickAnswers = async (search: string) =>
  (await api.get<{ quickAnswers: QuickAnswer[] }>("/quickAnswers", { searchParam: search })).quickAnswers;

/** A shared vCard: resolve the contact (spec §7 POST /contact), then open a ticket with it. */
export async function talkToContact(input: { name: string; number: string }, userId: number): Promise<Ticket> {
  const contact = await api.post<Contact>("/contact", { name: input.name, number: input.number.replace(/\D/g, "") });
  return api.post<Ticket>("/tickets", { contactId: contact.id, userId, status: "open" });
}
