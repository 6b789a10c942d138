import { api } from "../../../lib/api-client";

/** Web push needs a service worker, the Push API and notifications (and a secure context: https or localhost). */
export const pushSupported = (): boolean =>
  typeof window !== "undefined" &&
  window.isSecureContext === true &&
  "serviceWorker" in navigator &&
  "PushManager" in window &&
  "Notification" in window;

export const SW_URL = "/sw.js";

/** The root-scoped service worker (public/sw.js); registering again is a no-op for the browser. */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (!("serviceWorker" in navigator)) return undefined;
  return navigator.serviceWorker.register(SW_URL, { scope: "/" });
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Subscribes this browser with the server's VAPID key and hands the subscription to the server. */
export async function subscribePush(): Promise<PushSubscription> {
  const { publicKey } = await api.get<{ publicKey: string | null }>("/push/key");
  if (!publicKey) throw new Error("push disabled on the server");
  const registration = (await registerServiceWorker()) ?? (await navigator.serviceWorker.ready);
  await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  const key = Uint8Array.from(atob(publicKey.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await api.post("/push/subscriptions", subscription.toJSON());
  return subscription;
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

/** Forgets this browser's subscription, on the server first (while the session is still valid). */
export async function unsubscribePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api.delete("/push/subscriptions", { endpoint: subscription.endpoint }).catch(() => undefined);
  await subscription.unsubscribe().catch(() => false);
}
