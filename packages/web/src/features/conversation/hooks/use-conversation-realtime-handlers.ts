import { useQueryClient } from "@tanstack/react-query";
import type { RealtimePayloads } from "@zapdesk/core";
import { useMemo } from "react";
import { upsertMessage } from "../utils/message-cache";

/** `appMessage` create/update land in the cached conversation, if that conversation is loaded. */
export function useConversationRealtimeHandlers() {
  const client = useQueryClient();
  return useMemo(
    () => ({
      appMessage(event: RealtimePayloads["appMessage"]) {
        upsertMessage(client, event.message);
      },
    }),
    [client],
  );
}
