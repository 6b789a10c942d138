import { expect } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";

/*
 * The e2e server's QR connections open a WebSocket nobody answers (WHATSAPP_WEB_URL in
 * global-setup.ts), as a server cut off from WhatsApp would: the pairing dialog must say so.
 */
test("the pairing dialog says the server cannot reach WhatsApp, with the last error and a retry", async ({ page }) => {
  test.setTimeout(120_000);
  const name = `QR ${runId()}`;
  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);

  await page.goto("/connections");
  await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
  const add = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
  await add.getByLabel("Nome", { exact: true }).fill(name);
  await add.getByRole("radio", { name: "QR code (WhatsApp Web)" }).check();
  await add.getByRole("button", { name: "Adicionar" }).click();

  // It keeps reconnecting; the admin stops it, then asks to pair again by QR code.
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByRole("img", { name: "A conexão com o celular foi perdida" })).toBeVisible({ timeout: 30_000 });
  await row.getByRole("button", { name: "Desconectar" }).click();
  await page
    .getByRole("dialog", { name: `Desconectar ${name}?` })
    .getByRole("button", { name: "Ok" })
    .click();
  await row.getByRole("button", { name: "Novo QR Code" }).click();
  const choose = page.getByRole("dialog", { name: `Parear ${name} de novo` });
  await choose.getByRole("radio", { name: "Ler um QR code" }).check();
  await choose.getByRole("button", { name: "Parear" }).click();

  // No QR code can come: instead of waiting for ever, the dialog tells why and offers a retry.
  const dialog = page.getByRole("dialog", { name: `QR Code: ${name}` });
  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText("O Zapdesk não consegue alcançar o WhatsApp", { timeout: 30_000 });
  await expect(alert).toContainText(/Último erro: .*(ECONNREFUSED|WebSocket Error)/);
  await expect(dialog.getByText("Aguardando QR Code")).toHaveCount(0);
  await capture(page, "pairing-unreachable");

  await dialog.getByRole("button", { name: "Tentar agora" }).click();
  await expect(alert).toContainText("O Zapdesk não consegue alcançar o WhatsApp", { timeout: 30_000 });
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await expect(dialog).toHaveCount(0);
});
