import { type APIRequestContext, type Browser, type BrowserContext, test as base, expect, type Page } from "@playwright/test";

export const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? "admin@zapdesk.local";
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? "admin123";

/** Signs in through the login form (Portuguese, the default language) and waits for the dashboard. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** The contexts `newSession` opened during the running test, closed when it ends (`test` below). */
const sessions = new Set<BrowserContext>();

/**
 * A separate browser context: its own storage, session and socket, like a second person. It is
 * closed when the test ends, by the `test` this file exports (which every journey uses).
 */
export async function newSession(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  sessions.add(context);
  context.once("close", () => sessions.delete(context));
  const page = await context.newPage();
  await logIn(page, email, password);
  return page;
}

/**
 * Playwright's `test`, with the sessions a test opened closed when it ends. The run shares one
 * browser (`workers: 1`): left open, every signed-in page of every earlier journey stayed live
 * (its socket connected, hearing events, repainting in software), and each journey ran slower than
 * the one before it.
 */
export const test = base.extend<{ closeSessions: undefined }>({
  closeSessions: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      await use(undefined);
      await Promise.all([...sessions].map((context) => context.close()));
      sessions.clear();
    },
    { auto: true },
  ],
});

export const nav = (page: Page) => page.getByRole("navigation", { name: /Menu principal|Main menu|Menú principal/ });

/** Every screen is captured for review under e2e/artifacts/screens. */
export async function capture(page: Page, name: string): Promise<void> {
  // The socket keeps the network busy, so "networkidle" never comes: wait for spinners and skeletons instead.
  await expect(page.locator('[role="progressbar"], [aria-busy="true"]'))
    .toHaveCount(0, { timeout: 5000 })
    .catch(() => undefined);
  await page.screenshot({ path: `e2e/artifacts/screens/${name}.png`, fullPage: true });
}

/** Setup through the real HTTP API, for what a journey is not about. */
export async function apiSession(request: APIRequestContext, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  const login = await request.post("/api/auth/login", { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async post<T>(path: string, data: unknown): Promise<T> {
      const res = await request.post(`/api${path}`, { data, headers });
      expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
      return (await res.json()) as T;
    },
  };
}

export const runId = () => Date.now().toString(36);
