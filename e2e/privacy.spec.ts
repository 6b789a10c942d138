import { expect } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, nav, newSession, test } from "./support/app";

test.setTimeout(120_000);

// Issue 22 §4: an admin changes a setting, opens the audit trail, filters, and sees the entry.
test("an admin's setting change is in the audit trail, found by its filters", async ({ browser }) => {
  const page = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto("/Settings");
  const setting = page.getByRole("combobox", { name: "Criação de usuário" });
  // Read once the settings have loaded (the select is empty before).
  await expect(setting).toHaveText(/^(Ativado|Desativado)$/, { timeout: 30_000 });
  const before = (await setting.textContent())?.includes("Desativado") ? "Desativado" : "Ativado";
  const after = before === "Ativado" ? "Desativado" : "Ativado";
  await setting.click();
  await page.getByRole("option", { name: after, exact: true }).click();
  await expect(setting).toContainText(after);

  await nav(page).getByRole("link", { name: "Auditoria" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole("heading", { name: "Trilha de auditoria" })).toBeVisible();
  await page.getByRole("combobox", { name: "Ação" }).click();
  await page.getByRole("option", { name: "Alterou uma configuração" }).click();
  await page.getByLabel("Tipo do alvo").fill("setting");
  await page.getByLabel("ID do alvo").fill("userCreation");
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
  await page.getByRole("textbox", { name: "De", exact: true }).fill(day);
  const table = page.getByRole("table", { name: "Trilha de auditoria" });
  const row = table.getByRole("row").nth(1);
  await expect(row).toContainText("Alterou uma configuração");
  await expect(row).toContainText("setting #userCreation");
  const value = (v: string) => (v === "Ativado" ? "enabled" : "disabled");
  await expect(row).toContainText(`"to":"${value(after)}"`);
  await expect(row).toContainText(`"from":"${value(before)}"`);
  await capture(page, "audit-filtered");

  // Put the setting back (this too is recorded).
  await page.goto("/Settings");
  await page.getByRole("combobox", { name: "Criação de usuário" }).click();
  await page.getByRole("option", { name: before, exact: true }).click();
  await expect(page.getByRole("combobox", { name: "Criação de usuário" })).toContainText(before);
});

// Issue 22 §5: a session ended from another device is signed out at once.
test("a user ends another of their sessions from the Sessions dialog, and that browser is signed out", async ({ browser }) => {
  const laptop = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const phone = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);

  await laptop.getByRole("button", { name: "Menu do usuário" }).click();
  await laptop.getByRole("menuitem", { name: "Sessões" }).click();
  const dialog = laptop.getByRole("dialog", { name: "Suas sessões" });
  await expect(dialog.getByText("Este dispositivo")).toBeVisible();
  const others = dialog.getByRole("listitem").filter({ hasNot: laptop.getByText("Este dispositivo") });
  await expect(others.first()).toBeVisible();
  await capture(laptop, "sessions-dialog");
  const count = await others.count();
  for (let i = 0; i < count; i++) await others.first().getByRole("button", { name: "Encerrar" }).click();
  await expect(others).toHaveCount(0);

  // The other browser's next request is refused (401): it lands on the login page.
  await phone.goto("/contacts");
  await expect(phone).toHaveURL(/\/login$/, { timeout: 15_000 });
  // This one goes on.
  await laptop.goto("/contacts");
  await expect(laptop).toHaveURL(/\/contacts$/);
});
