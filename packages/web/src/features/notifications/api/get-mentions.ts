import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NoteMention } from "@zapdesk/core";
import { useEffect } from "react";
import { api } from "../../../lib/api-client";

export const mentionKeys = { all: ["notifications", "mentions"] as const };

export interface Mentions {
  mentions: NoteMention[];
  unreadCount: number;
}

/** Issue 11: the notes that mention the signed-in user (newest 50) and how many are unread. */
export const getMentions = () => api.get<Mentions>("/notes/mentions");

export function useMentions() {
  return useQuery({ queryKey: mentionKeys.all, queryFn: getMentions, staleTime: Number.POSITIVE_INFINITY });
}

export function useMarkMentionRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<null>(`/notes/mentions/${id}/read`),
    onSuccess: () => client.invalidateQueries({ queryKey: mentionKeys.all }),
  });
}

/** Opening a ticket reads the mentions on it: the bell stops counting them. */
export function useReadMentionsOnOpen(openTicketId: number | undefined) {
  const client = useQueryClient();
  const { data } = useMentions();
  const unreadHere = !!openTicketId && !!data?.mentions.some((m) => !m.read && m.ticketId === openTicketId);
  useEffect(() => {
    if (!unreadHere || !openTicketId) return;
    api
      .post("/notes/mentions/read", { ticketId: openTicketId })
      .then(() => client.invalidateQueries({ queryKey: mentionKeys.all }))
      .catch(() => undefined);
  }, [unreadHere, openTicketId, client]);
}
