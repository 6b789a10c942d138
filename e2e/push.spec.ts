import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type BrowserContext, expect, type Page } from "@playwright/test";
import { waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";

/*
 * Issue 13 item 7, installable and reachable: the manifest and icons, the service worker, the
 * per-user notification preferences and what they switch, and push display by the service worker.
 * Headless Chromium cannot subscribe to a real push service here (no network to FCM): the server's
 * delivery to a push endpoint (VAPID, aes128gcm, 404/410, visibility) is covered by
 * packages/server/src/modules/push/push.test.ts against a local fake push service; this journey
 * delivers a push message to the registered service worker through the DevTools protocol.
 */
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;

test.setTimeout(180_000);

/** Records the browser notifications the page creates (the app's own, while it is open). */
const RECORD_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  const shown = [];
  window.__notifications = shown;
  function Recorded(title, options) {
    shown.push({ title, body: options && options.body, tag: options && options.tag });
    return new Real(title, options);
  }
  Recorded.requestPermission = (...args) => Real.requestPermission(...args);
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.prototype = Real.prototype;
  window.Notification = Recorded;
})();`;

async function agentContext(page: Page | undefined, context: BrowserContext) {
  await context.grantPermissions(["notifications"]);
  await context.addInitScript(RECORD_NOTIFICATIONS);
  return page ?? (await context.newPage());
}

/**
 * Resolves once the page's socket is up: socket.io connects over HTTP polling and then upgrades,
 * so a frame on the websocket means the connection (and its rooms) exists; events reach it from then on.
 */
function socketConnected(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on("websocket", (ws) => {
      if (!ws.url().includes("/socket.io/")) return;
      ws.on("framereceived", () => resolve());
    });
  });
}

const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notifications: { title: string; tag: string }[] }).__notifications);

test("the app is installable: manifest, icons and the service worker", async ({ page, request }) => {
  const res = await request.get("/manifest.webmanifest");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  const manifest = await res.json();
  expect(manifest).toMatchObject({ name: "Zapdesk", short_name: "Zapdesk", start_url: "/", display: "standalone" });
  for (const icon of manifest.icons as { src: string; type: string }[]) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()["content-type"], icon.src).toContain(icon.type);
  }
  const sw = await request.get("/sw.js");
  expect(sw.headers()["cache-control"]).toBe("no-cache");

  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  // Chromium's own reading of the manifest: parsed without errors, its icons and display understood.
  const cdp = await page.context().newCDPSession(page);
  const app = (await cdp.send("Page.getAppManifest")) as { url: string; errors: { message: string }[]; data: string };
  expect(app.url).toMatch(/\/manifest\.webmanifest$/);
  expect(app.errors).toEqual([]);
  expect(JSON.parse(app.data).display).toBe("standalone");

  const registration = await page.evaluate(async () => {
    const ready = await navigator.serviceWorker.ready;
    return { scope: ready.scope, script: ready.active?.scriptURL };
  });
  expect(registration.scope).toBe(new URL("/", page.url()).href);
  expect(registration.script).toMatch(/\/sw\.js$/);
  await capture(page, "push-installable-dashboard");
  await page.goto("/icon-512.png");
  await page.screenshot({ path: "e2e/artifacts/screens/push-icon-512.png" });
  await page.goto("/icon-maskable-512.png");
  await page.screenshot({ path: "e2e/artifacts/screens/push-icon-maskable-512.png" });
});

test("VAPID keys were generated into DATA_DIR on first start and the key is served", async ({ request }) => {
  const { publicKey } = await (await request.get("/api/push/key")).json();
  expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
  const stored = JSON.parse(readFileSync(join(process.env.E2E_TMP!, "data", ".vapid.json"), "utf8"));
  expect(stored.publicKey).toBe(publicKey);
});

test("notification preferences: each agent's switches decide the chime and the browser notification", async ({
  browser,
  request,
}) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const sales = await admin.createQueue(`Vendas ${run}`, color());
  const support = await admin.createQueue(`Suporte ${run}`, color());
  await admin.createUser(`Paula ${run}`, `paula-${run}@e2e.local`, "secret123", [sales.id]);
  await admin.createUser(`Rui ${run}`, `rui-${run}@e2e.local`, "secret123", [support.id]);
  const whatsappId = await admin.createSimulator([sales.id]);

  const paulaContext = await browser.newContext();
  const paula = await agentContext(undefined, paulaContext);
  await logIn(paula, `paula-${run}@e2e.local`, "secret123");
  const ruiContext = await browser.newContext();
  const rui = await agentContext(undefined, ruiContext);
  await logIn(rui, `rui-${run}@e2e.local`, "secret123");
  const connected = [socketConnected(paula), socketConnected(rui)];
  await paula.goto("/tickets");
  await paula.getByRole("tab", { name: /Aguardando/ }).click();
  await rui.goto("/tickets");
  await Promise.all(connected);
  await expect.poll(() => paula.evaluate(() => navigator.serviceWorker.ready.then((r) => !!r.active))).toBe(true);

  // A customer writes to Sales: Paula (Sales) is told, Rui (Support) is not.
  const customerName = `Helena ${run}`;
  const from = `5511${String(Date.now()).slice(-7)}3`;
  await admin.customerWrites(whatsappId, { from, name: customerName, body: "Oi, quero saber do meu pedido" });
  await expect
    .poll(() => shown(paula))
    .toEqual([expect.objectContaining({ title: `Mensagem de ${customerName}`, tag: expect.stringMatching(/^ticket-\d+$/) })]);
  expect(await shown(rui)).toEqual([]);

  // The Notifications dialog, from the user menu.
  await paula.getByRole("button", { name: /menu do usuário|Usuário/i }).click();
  await paula.getByRole("menuitem", { name: "Notificações" }).click();
  const dialog = paula.getByRole("dialog", { name: "Notificações" });
  await expect(dialog.getByRole("switch", { name: "Som" })).toBeChecked();
  await expect(dialog.getByRole("switch", { name: "Notificações com o Zapdesk aberto" })).toBeChecked();
  await capture(paula, "push-preferences-dialog");

  // Desktop off: the next message is counted by the bell but shows no browser notification.
  await dialog.getByRole("switch", { name: "Notificações com o Zapdesk aberto" }).click();
  await expect(dialog.getByRole("switch", { name: "Notificações com o Zapdesk aberto" })).not.toBeChecked();
  await dialog.getByRole("switch", { name: "Som" }).click();
  await expect(dialog.getByRole("switch", { name: "Som" })).not.toBeChecked();
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await admin.customerWrites(whatsappId, { from, name: customerName, body: "Alguém aí?" });
  await expect(waitingList(paula).getByText("Alguém aí?")).toBeVisible();
  expect(await shown(paula)).toHaveLength(1);

  // Kept by the server: after a reload (and on any other browser) the switches are as left.
  await paula.reload();
  await paula.getByRole("button", { name: /menu do usuário|Usuário/i }).click();
  await paula.getByRole("menuitem", { name: "Notificações" }).click();
  await expect(dialog.getByRole("switch", { name: "Som" })).not.toBeChecked();
  await expect(dialog.getByRole("switch", { name: "Notificações com o Zapdesk aberto" })).not.toBeChecked();

  // Push on this browser: permission is granted, but Playwright's contexts are off-the-record and
  // Chromium refuses push subscriptions there (and FCM is out of reach): the dialog says so.
  const push = dialog.getByRole("switch", { name: "Notificações push" });
  await expect(push).toBeEnabled();
  await push.click();
  await expect(paula.getByText("Este navegador não conseguiu se inscrever para notificações push.")).toBeVisible();
  await expect(push).not.toBeChecked();
  await capture(paula, "push-preferences-push-refused");
  await dialog.getByRole("button", { name: "Fechar" }).click();

  // The service worker shows a push message as a notification when no window is visible, with the
  // ticket's URL to open, and collapses a ticket's notifications into one (its tag).
  const cdp = await paulaContext.newCDPSession(paula);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => registrations.push(...event.registrations));
  await cdp.send("ServiceWorker.enable");
  const origin = new URL(paula.url()).origin;
  await expect.poll(() => registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)).toBeTruthy();
  const registrationId = registrations.find((r) => r.scopeURL === `${origin}/`)!.registrationId;
  const deliver = (payload: object) =>
    cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(payload) });
  // Read from inside the service worker: a page of the app would itself be a visible window.
  const worker = paulaContext.serviceWorkers().find((w) => w.url().endsWith("/sw.js"))!;
  const inTray = () =>
    worker.evaluate(async () =>
      (await (self as unknown as { registration: ServiceWorkerRegistration }).registration.getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        data: n.data,
      })),
    );

  // The app is open and visible: it tells the user itself, the service worker stays quiet.
  await deliver({ title: customerName, body: "Com a aba aberta", url: "/tickets/1", tag: "ticket-1", ticketId: 1 });

  // No window of the app (the tab went elsewhere): the service worker shows it; the second
  // message of the same ticket replaces the first. The one above, delivered earlier, never shows.
  await paula.goto("about:blank");
  await deliver({ title: customerName, body: "Primeira mensagem", url: "/tickets/41", tag: "ticket-41", ticketId: 41 });
  await deliver({ title: customerName, body: "Segunda mensagem", url: "/tickets/41", tag: "ticket-41", ticketId: 41 });
  await expect
    .poll(inTray)
    .toEqual([{ title: customerName, body: "Segunda mensagem", tag: "ticket-41", data: { url: "/tickets/41" } }]);

  // Clicking it with Zapdesk open in a tab: that tab opens the ticket (the service worker asks it
  // to route) and the notification goes away. The click is dispatched inside the worker: a
  // headless browser has no notification tray to click.
  await paula.goto("/tickets");
  await expect(paula.getByRole("tab", { name: /Aguardando/ })).toBeVisible();
  await worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
    const [notification] = await scope.registration.getNotifications();
    const Click = (self as unknown as { NotificationEvent: new (type: string, init: object) => Event }).NotificationEvent;
    scope.dispatchEvent(new Click("notificationclick", { notification }));
  });
  await expect(paula).toHaveURL(/\/tickets\/41$/);
  await expect.poll(inTray).toEqual([]);
  await capture(paula, "push-opened-from-notification");
  await paulaContext.close();
  await ruiContext.close();
});
