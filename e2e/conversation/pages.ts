import type { Page } from "@playwright/test";

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
