import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { NotificationPreferencesDialog } from "./notification-preferences-dialog";

const KEY = "BNbxGYNMhEIi9zrneh7mqV4oUanjLUK3m-mYZBc62frMKrEoMk88r3Lk596T0ck9xlT-OfAP0S5Y7Vo0k8YUuyA";

function stubNotification(permission: NotificationPermission) {
  const requestPermission = vi.fn(async () => permission);
  vi.stubGlobal("Notification", Object.assign(vi.fn(), { permission, requestPermission }));
  return requestPermission;
}

/** A browser with the Push API: its one subscription, made with whatever key the app passes. */
function stubPush() {
  let current: PushSubscription | null = null;
  const subscribe = vi.fn(async (options: PushSubscriptionOptionsInit) => {
    current = {
      endpoint: "https://push.example.com/send/abc",
      options: { applicationServerKey: (options.applicationServerKey as Uint8Array).buffer, userVisibleOnly: true },
      toJSON: () => ({ endpoint: "https://push.example.com/send/abc", expirationTime: null, keys: { p256dh: "p", auth: "a" } }),
      unsubscribe: vi.fn(async () => {
        current = null;
        return true;
      }),
    } as unknown as PushSubscription;
    return current;
  });
  const registration = { pushManager: { subscribe, getSubscription: async () => current } };
  vi.stubGlobal("PushManager", vi.fn());
  vi.stubGlobal("isSecureContext", true);
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: {
      register: vi.fn(async () => registration),
      getRegistration: vi.fn(async () => registration),
      ready: Promise.resolve(registration),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    },
  });
  return { subscribe, subscription: () => current };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
});

async function setup(prefs = { sound: true, desktop: true, push: false }) {
  const api = fakeApi({
    "GET /api/me/notification-preferences": { body: prefs },
    "PUT /api/me/notification-preferences": (request) => ({ body: { ...prefs, ...(request.body as object) } }),
    "GET /api/push/key": { body: { publicKey: KEY } },
    "POST /api/push/subscriptions": { body: { id: 1, endpoint: "https://push.example.com/send/abc" } },
    "DELETE /api/push/subscriptions": { body: { message: "Push subscription deleted" } },
  });
  signedInAs(api, AGENT);
  await renderWithProviders(<NotificationPreferencesDialog open onClose={() => {}} />);
  return api;
}

describe("the notification preferences dialog", () => {
  it("saves the sound switch for the user, and says when the browser has no notifications or push", async () => {
    const api = await setup();
    const sound = await screen.findByRole("switch", { name: "Som" });
    await waitFor(() => expect(sound).toBeChecked());
    await userEvent.setup().click(sound);
    await waitFor(() => expect(api.callsTo("PUT", "/api/me/notification-preferences")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/me/notification-preferences")[0].body).toEqual({ sound: false });
    await waitFor(() => expect(sound).not.toBeChecked());
    expect(screen.getByRole("switch", { name: "Notificações push" })).toBeDisabled();
    expect(screen.getByRole("switch", { name: "Notificações com o Zapdesk aberto" })).toBeDisabled();
    expect(screen.getByText(/não suporta notificações push/)).toBeInTheDocument();
  });

  it("explains a browser that blocked notifications and keeps desktop and push off", async () => {
    stubNotification("denied");
    stubPush();
    await setup({ sound: true, desktop: true, push: true });
    expect(await screen.findByTestId("notifications-denied")).toHaveTextContent(/bloqueadas/);
    expect(screen.getByRole("switch", { name: "Notificações com o Zapdesk aberto" })).toBeDisabled();
    expect(screen.getByRole("switch", { name: "Notificações push" })).not.toBeChecked();
    expect(screen.getByRole("switch", { name: "Notificações push" })).toBeDisabled();
  });

  it("turns push on: asks permission, subscribes with the server's key, hands the subscription over, saves the choice", async () => {
    const requestPermission = stubNotification("default");
    requestPermission.mockImplementation(async () => {
      (Notification as unknown as { permission: string }).permission = "granted";
      return "granted";
    });
    const push = stubPush();
    const api = await setup();
    const toggle = await screen.findByRole("switch", { name: "Notificações push" });
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.setup().click(toggle);

    await waitFor(() => expect(api.callsTo("PUT", "/api/me/notification-preferences")).toHaveLength(1));
    expect(requestPermission).toHaveBeenCalledOnce();
    const key = push.subscribe.mock.calls[0][0].applicationServerKey as Uint8Array;
    expect(key).toHaveLength(65);
    expect(api.callsTo("POST", "/api/push/subscriptions")[0].body).toEqual({
      endpoint: "https://push.example.com/send/abc",
      expirationTime: null,
      keys: { p256dh: "p", auth: "a" },
    });
    expect(api.callsTo("PUT", "/api/me/notification-preferences")[0].body).toEqual({ push: true });
    await waitFor(() => expect(toggle).toBeChecked());
    expect(screen.getByTestId("push-state")).toHaveTextContent("Este navegador recebe notificações push.");

    // And off again: the server forgets this browser's endpoint, the browser unsubscribes.
    await userEvent.setup().click(toggle);
    await waitFor(() => expect(api.callsTo("DELETE", "/api/push/subscriptions")).toHaveLength(1));
    expect(api.callsTo("DELETE", "/api/push/subscriptions")[0].body).toEqual({ endpoint: "https://push.example.com/send/abc" });
    expect(push.subscription()).toBeNull();
    await waitFor(() => expect(api.callsTo("PUT", "/api/me/notification-preferences")[1].body).toEqual({ push: false }));
  });
});
