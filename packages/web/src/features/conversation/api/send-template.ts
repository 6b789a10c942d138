import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Message, TemplateSendInput } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { upsertMessage } from "../utils/message-cache";

/** POST /messages/:ticketId/template: an approved template with its variables (outside the 24-hour window). */
export const sendTemplate = (ticketId: number, input: TemplateSendInput) =>
  api.post<Message>(`/messages/${ticketId}/template`, input);

export function useSendTemplate(ticketId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TemplateSendInput) => sendTemplate(ticketId, input),
    onSuccess: (message) => upsertMessage(client, message),
  });
}
