import { expect, type Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, logIn, test } from "./support/app";

const SCREENS = [
  "/",
  "/tickets",
  "/contacts",
  "/quickAnswers",
  "/users",
  "/connections",
  "/Queues",
  "/Settings",
  "/ZDG",
  "/ZDGMedia",
  "/ZDGGroups",
  "/InstaDirect",
  "/SMS",
  "/VoiceCall",
  "/ZDGChatbot",
  "/ZDGAgendamento",
  "/ZDGHistorico",
  "/ZDGComunidade",
  "/ZDGPassaporte",
];

const CONTROL = "button|textbox|searchbox|combobox|link|checkbox|switch|radio|menuitem|tab|spinbutton|slider";
// In an ARIA snapshot a named control reads `- button "Save"`; a nameless one `- button` or `- button:`.
const NAMELESS = new RegExp(`^\\s*- (${CONTROL})(:|\\s*$|\\s+\\[)`);

async function namelessControls(page: Page): Promise<string[]> {
  const snapshot = await page.locator("body").ariaSnapshot();
  return snapshot.split("\n").filter((line) => NAMELESS.test(line));
}

test("every control on every screen and form has an accessible name", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Entrar" })).toBeVisible();
  expect(await namelessControls(page), "/login").toEqual([]);
  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);

  for (const path of SCREENS) {
    await page.goto(path);
    // Screens show a heading; the tickets workspace shows its tabs instead.
    await expect(page.locator("main").locator("h1, [role=tablist]").first()).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    expect(await namelessControls(page), path).toEqual([]);
  }

  const dialogs: [string, string][] = [
    ["/users", "Adicionar usuário"],
    ["/contacts", "Adicionar contato"],
    ["/quickAnswers", "Adicionar resposta rápida"],
    ["/Queues", "Adicionar fila"],
    ["/connections", "Adicionar WhatsApp"],
  ];
  for (const [path, button] of dialogs) {
    await page.goto(path);
    await page.getByRole("button", { name: button }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    const snapshot = await dialog.ariaSnapshot();
    expect(
      snapshot.split("\n").filter((line) => NAMELESS.test(line)),
      `${path} dialog`,
    ).toEqual([]);
    await page.keyboard.press("Escape");
  }
});

test("the keyboard reaches the main actions with a visible focus ring", async ({ page }) => {
  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto("/contacts");
  const add = page.getByRole("button", { name: "Adicionar contato" });
  await expect(add).toBeVisible();
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await add.evaluate((element) => element === document.activeElement);
  }
  expect(reached, "Tab reaches 'Adicionar contato'").toBe(true);
  const outline = await add.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Adicionar contato" })).toBeVisible();
  await expect(page.getByRole("dialog").getByLabel("Nome", { exact: true })).toBeFocused();
});

test("on a narrow screen the drawer is temporary and opens from the menu button", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page.getByRole("link", { name: "Contatos" })).toBeHidden();
  await page.getByRole("button", { name: "Abrir menu" }).click();
  await page.getByRole("link", { name: "Contatos" }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole("link", { name: "Contatos" })).toBeHidden();
  await page.screenshot({ path: "e2e/artifacts/screens/narrow-contacts.png" });
  await context.close();
});
