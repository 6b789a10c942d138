/*
 * Zapdesk's service worker (issue 13 item 7): web push only, no offline cache. Served from the
 * root (scope "/") under a fixed name with Cache-Control: no-cache, so a new build is picked up
 * by the browser's update check. The payload is { title, body, url, tag, ticketId } (server:
 * modules/push/push.service.ts).
 */
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** The app's own windows, visible ones first. */
const appWindows = () => self.clients.matchAll({ type: "window", includeUncontrolled: true });

/**
 * Push messages are shown one after another, in the order they arrived. Each waits for the
 * windows' list first; two messages of a ticket a moment apart would otherwise race, and the older
 * one could be shown last, replacing the newer under the ticket's tag.
 */
let shownInOrder = Promise.resolve();

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const shown = shownInOrder.then(appWindows).then((windows) => {
    // A visible window already chimes and shows its own notification (the user's preferences).
    if (windows.some((w) => w.visibilityState === "visible")) return undefined;
    return self.registration.showNotification(data.title || "Zapdesk", {
      body: data.body || "",
      tag: data.tag || undefined,
      renotify: Boolean(data.tag),
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      data: { url: data.url || "/tickets" },
    });
  });
  shownInOrder = shown.catch(() => undefined);
  event.waitUntil(shown);
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/tickets", self.location.origin);
  event.waitUntil(
    appWindows().then(async (windows) => {
      const existing = windows.find((w) => new URL(w.url).origin === target.origin);
      if (existing) {
        // The app listens for this and routes without a reload; navigate() is the fallback.
        existing.postMessage({ type: "zapdesk:open", url: target.pathname + target.search });
        return existing.focus();
      }
      return self.clients.openWindow(target.href);
    }),
  );
});
