import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences, type NotificationPreferencesInput } from "@zapdesk/core";
import { api } from "../../../lib/api-client";

export const preferenceKeys = { mine: ["me", "notification-preferences"] as const };

export const getNotificationPreferences = () => api.get<NotificationPreferences>("/me/notification-preferences");

/** The signed-in user's choices (sound, desktop, push), kept by the server per user. */
export function useNotificationPreferences() {
  return useQuery({ queryKey: preferenceKeys.mine, queryFn: getNotificationPreferences, staleTime: Number.POSITIVE_INFINITY });
}

/** What the alerts follow until the preferences have loaded: everything on, as the server's default. */
export const preferencesOrDefault = (prefs: NotificationPreferences | undefined) => prefs ?? DEFAULT_NOTIFICATION_PREFERENCES;

export function useSaveNotificationPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationPreferencesInput) => api.put<NotificationPreferences>("/me/notification-preferences", input),
    onSuccess: (prefs) => client.setQueryData(preferenceKeys.mine, prefs),
  });
}
