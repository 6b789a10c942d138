import { type Browser, expect, type Page } from "@playwright/test";

/** An agent in their own browser context (own session, own socket), signed in through the login form. */
export async function signIn(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ permissions: ["microphone"] });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/$/);
  return page;
}

export const waitingList = (page: Page) => page.getByRole("list", { name: "Aguardando" });
export const workingList = (page: Page) => page.getByRole("list", { name: "Atendendo" });
export const composer = (page: Page) => page.getByRole("textbox", { name: /Digite uma mensagem/ });
export const bell = (page: Page, count: number) => page.getByRole("button", { name: `Notificações: ${count} tickets não lidos` });

/** Pastes a file into the composer the way a browser does for a screenshot (a ClipboardEvent with files). */
export async function pasteFile(page: Page, base64: string, name: string, type: string): Promise<void> {
  await composer(page).evaluate(
    (element, file) => {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], file.name, { type: file.type }));
      element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { base64, name, type },
  );
}
