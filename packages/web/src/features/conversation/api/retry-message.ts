import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Message } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { upsertMessage } from "../utils/message-cache";

/** POST /messages/:id/retry: send again a message WhatsApp refused or never confirmed; it comes back queued (ack 0, no error). */
export const retryMessage = (id: number) => api.post<Message>(`/messages/${id}/retry`);

export function useRetryMessage() {
  const client = useQueryClient();
  return useMutation({ mutationFn: retryMessage, onSuccess: (message) => upsertMessage(client, message) });
}
