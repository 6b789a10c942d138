import { useEffect } from "react";
import { useNavigate } from "react-router";
import { useNotificationPreferences } from "../api/preferences";
import { pushSupported, registerServiceWorker, subscribePush, unsubscribePush } from "../utils/push-client";

/**
 * In the signed-in layout: registers the service worker, follows its "open this ticket" message
 * (a push notification clicked while the app is open) and keeps this browser's push subscription
 * in line with the user's preference (subscribed when push is on and the browser allows it).
 */
export function usePushSync(): void {
  const navigate = useNavigate();
  const { data: prefs } = useNotificationPreferences();

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    registerServiceWorker().catch(() => undefined);
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; url?: string } | undefined;
      if (data?.type === "zapdesk:open" && typeof data.url === "string" && data.url.startsWith("/")) navigate(data.url);
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, [navigate]);

  const wanted = prefs?.push;
  useEffect(() => {
    if (wanted === undefined || !pushSupported()) return;
    if (wanted && Notification.permission === "granted") subscribePush().catch(() => undefined);
    else if (!wanted) unsubscribePush().catch(() => undefined);
  }, [wanted]);
}
