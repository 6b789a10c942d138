import { useQueryClient } from "@tanstack/react-query";
import type { RealtimePayloads } from "@zapdesk/core";
import { useMemo } from "react";
import { messagesRemoved, upsertMessage } from "../utils/message-cache";

/**
 * `appMessage` create/update land in the cached conversation, if that conversation is loaded;
 * `messagesRemoved` (a retention sweep) refetches it.
 */
export function useConversationRealtimeHandlers() {
  const client = useQueryClient();
  return useMemo(
    () => ({
      appMessage(event: RealtimePayloads["appMessage"]) {
        upsertMessage(client, event.message);
      },
      messagesRemoved(event: RealtimePayloads["messagesRemoved"]) {
        void messagesRemoved(client, event.ticketId);
      },
    }),
    [client],
  );
}
