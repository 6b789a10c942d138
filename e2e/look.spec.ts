import { type Browser, expect, type Locator, type Page } from "@playwright/test";
import { waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";

/*
 * Issue 13 items 8 and 5: the brand theme in light and dark (the system's, live, or the user's
 * choice), compact and comfortable densities, and the calmer conversation pane.
 */
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
const LIGHT_PAGE = "rgb(242, 245, 244)"; // brand.light.background.default
const DARK_PAGE = "rgb(14, 20, 19)"; // brand.dark.background.default
const MESSAGES = 45;

test.describe.configure({ mode: "serial" });
test.setTimeout(420_000);

const pageColour = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const opacity = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).opacity);
const width = (locator: Locator) => locator.evaluate((element) => element.getBoundingClientRect().width);

async function session(browser: Browser, email: string, password: string, colorScheme: "light" | "dark") {
  const context = await browser.newContext({ colorScheme });
  const page = await context.newPage();
  await logIn(page, email, password);
  return page;
}

/** User menu → Appearance: pick a theme and a density, as a user would. */
async function appearance(page: Page, choice: { theme?: "Sistema" | "Claro" | "Escuro"; density?: "Confortável" | "Compacta" }) {
  await page.getByRole("button", { name: "Menu do usuário" }).click();
  await page.getByRole("menuitem", { name: "Aparência" }).click();
  const dialog = page.getByRole("dialog", { name: "Aparência" });
  if (choice.theme) await dialog.getByRole("button", { name: choice.theme, exact: true }).click();
  if (choice.density) await dialog.getByRole("button", { name: choice.density, exact: true }).click();
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await expect(dialog).toBeHidden();
}

test("brand, density and dark mode; a calmer conversation pane", async ({ browser, request }) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await admin.createQueue(`Look ${run}`, color());
  await admin.createUser(`Ana ${run}`, `ana-look-${run}@e2e.local`, "secret123", [queue.id]);
  await admin.createUser(`Bruno ${run}`, `bruno-look-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await admin.createSimulator([queue.id]);

  // The login page, in the system's light and dark.
  for (const scheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme: scheme });
    const login = await context.newPage();
    await login.goto("/login");
    await expect(login.getByRole("button", { name: "Entrar" })).toBeVisible();
    await expect.poll(() => pageColour(login)).toBe(scheme === "dark" ? DARK_PAGE : LIGHT_PAGE);
    await capture(login, `look-login-${scheme}`);
    await context.close();
  }

  // A long conversation: the customer writes many messages, one of them with an order code.
  const customer = `5511${String(Date.now()).slice(-7)}5`;
  const customerName = `Lia ${run}`;
  const code = `ZX${run}`.toUpperCase();
  for (let i = 1; i <= MESSAGES; i++) {
    const body = i === 4 ? `Meu pedido é o ${code}, pode ver?` : `Mensagem ${i} da cliente`;
    await admin.customerWrites(whatsappId, { from: customer, name: customerName, body });
  }

  // Agent A (system light) accepts it.
  const ana = await session(browser, `ana-look-${run}@e2e.local`, "secret123", "light");
  await ana.goto("/tickets");
  await ana.getByRole("tab", { name: /Aguardando/ }).click();
  await waitingList(ana).getByRole("listitem", { name: customerName }).getByRole("button", { name: "Aceitar" }).click();
  await expect(ana).toHaveURL(/\/tickets\/\d+$/);
  const ticketId = Number(ana.url().split("/").pop());
  const log = ana.getByRole("log");
  await expect(log.getByText(`Mensagem ${MESSAGES} da cliente`)).toBeVisible();
  await expect.poll(() => pageColour(ana)).toBe(LIGHT_PAGE);
  await capture(ana, "look-conversation-light-comfortable");

  // Message actions: hidden at rest, revealed on hover and on keyboard focus.
  const last = log.locator("[data-message-id]").filter({ hasText: `Mensagem ${MESSAGES} da cliente` });
  const actions = last.getByRole("button", { name: "Opções da mensagem" });
  await ana.mouse.move(0, 0);
  await expect.poll(() => opacity(actions)).toBe("0");
  await last.hover();
  await expect.poll(() => opacity(actions)).toBe("1");
  await capture(ana, "look-message-hover");
  await ana.mouse.move(0, 0);
  await expect.poll(() => opacity(actions)).toBe("0");
  await actions.focus();
  await expect.poll(() => opacity(actions)).toBe("1");
  await ana.keyboard.press("Enter");
  await expect(ana.getByRole("menuitem", { name: "Responder" })).toBeVisible();
  await ana.keyboard.press("Escape");

  // The export left the pane: it is in the ticket's menu, and downloads the CSV.
  await expect(ana.getByRole("button", { name: "EXPORTAR CONVERSAS" })).toHaveCount(0);
  const download = ana.waitForEvent("download");
  await ana.getByRole("button", { name: "Opções do ticket" }).click();
  await ana.getByRole("menuitem", { name: "Exportar conversa (CSV)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`conversa-${ticketId}.csv`);
  const chunks: Buffer[] = [];
  for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
  const csv = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  expect(csv.split("\r\n")[0]).toBe("body,id,fromMe,quoted,isDel,mediaUrl,type,created");
  expect(csv).toContain(`"Mensagem ${MESSAGES} da cliente"`);

  // Virtualised: scrolled up through every page, the DOM still holds only the rows near the view.
  await expect(async () => {
    await log.evaluate((element) => {
      element.scrollTop = 0;
      element.dispatchEvent(new Event("scroll"));
    });
    await expect(log.getByText("Mensagem 1 da cliente", { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  const rendered = await log.locator("[data-index]").count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(MESSAGES);

  // A search result opens the ticket at the matching message, highlighted.
  await ana.goto("/tickets");
  await ana.getByRole("tab", { name: "Busca" }).click();
  await ana.getByRole("searchbox", { name: "Pesquisar tickets e mensagens" }).fill(code.toLowerCase());
  await ana
    .getByRole("button", { name: new RegExp(customerName) })
    .first()
    .click();
  await expect(ana).toHaveURL(new RegExp(`/tickets/${ticketId}\\?message=\\d+`));
  const highlighted = ana.locator(".message-highlighted");
  await expect(highlighted).toContainText(code);
  await expect(highlighted).toHaveAttribute("aria-current", "true");
  await capture(ana, "look-search-highlight-light");

  // At ~1100 px the contact drawer overlays the conversation instead of squeezing it.
  await ana.setViewportSize({ width: 1100, height: 800 });
  // The open drawer is modal: the log leaves the accessibility tree, so it is measured by its role attribute.
  const pane = ana.locator('[role="log"]');
  const before = await width(pane);
  await ana.getByRole("button", { name: `Dados do contato ${customerName}` }).click();
  await expect(ana.locator(".MuiDrawer-modal .MuiDrawer-paper")).toBeVisible();
  expect(await width(pane)).toBe(before);
  await capture(ana, "look-drawer-overlay-1100");
  await ana.keyboard.press("Escape");
  await expect(ana.locator(".MuiDrawer-modal")).toHaveCount(0);
  await ana.setViewportSize({ width: 1280, height: 800 });

  // Manual dark, then compact; both kept after a reload.
  await ana.goto(`/tickets/${ticketId}`);
  await expect(log.getByText(`Mensagem ${MESSAGES} da cliente`)).toBeVisible();
  await appearance(ana, { theme: "Escuro" });
  await expect.poll(() => pageColour(ana)).toBe(DARK_PAGE);
  await capture(ana, "look-conversation-dark-comfortable");
  const comfortableRow = await ana.getByRole("button", { name: "Opções do ticket" }).boundingBox();
  await appearance(ana, { density: "Compacta" });
  const compactRow = await ana.getByRole("button", { name: "Opções do ticket" }).boundingBox();
  expect(compactRow?.height ?? 0).toBeLessThan(comfortableRow?.height ?? 0);
  await capture(ana, "look-conversation-dark-compact");
  await ana.reload();
  await expect(log.getByText(`Mensagem ${MESSAGES} da cliente`)).toBeVisible();
  await expect.poll(() => pageColour(ana)).toBe(DARK_PAGE);
  await ana.goto("/tickets");
  await ana.getByRole("tab", { name: /Atendendo/ }).click();
  await capture(ana, "look-tickets-dark-compact");
  await appearance(ana, { theme: "Claro" });
  await capture(ana, "look-tickets-light-compact");
  await appearance(ana, { density: "Confortável" });
  await capture(ana, "look-tickets-light-comfortable");

  // Agent B's system is dark: the app follows it, and follows it live when the OS switches.
  const bruno = await session(browser, `bruno-look-${run}@e2e.local`, "secret123", "dark");
  await bruno.goto("/tickets");
  await expect.poll(() => pageColour(bruno)).toBe(DARK_PAGE);
  await bruno.getByRole("tab", { name: /Aguardando/ }).click();
  await capture(bruno, "look-tickets-dark-comfortable-system");
  await bruno.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => pageColour(bruno)).toBe(LIGHT_PAGE);
  await bruno.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => pageColour(bruno)).toBe(DARK_PAGE);

  // The admin's dashboard, in light and dark, comfortable and compact.
  const boss = await session(browser, ADMIN_EMAIL, ADMIN_PASSWORD, "light");
  await expect(boss.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await capture(boss, "look-dashboard-light-comfortable");
  await appearance(boss, { density: "Compacta" });
  await capture(boss, "look-dashboard-light-compact");
  await appearance(boss, { theme: "Escuro" });
  await expect.poll(() => pageColour(boss)).toBe(DARK_PAGE);
  await capture(boss, "look-dashboard-dark-compact");
  await appearance(boss, { density: "Confortável" });
  await capture(boss, "look-dashboard-dark-comfortable");
  await appearance(boss, { theme: "Sistema" });
  await expect.poll(() => pageColour(boss)).toBe(LIGHT_PAGE);
});
