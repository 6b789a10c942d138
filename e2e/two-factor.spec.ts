import { expect, type Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, apiSession, capture, logIn, newSession, runId, test } from "./support/app";
import { totpAt } from "./support/totp";

test.setTimeout(240_000);

const openTwoFactor = async (page: Page) => {
  await page.getByRole("button", { name: "Menu do usuário" }).click();
  await page.getByRole("menuitem", { name: "Verificação em duas etapas" }).click();
  return page.getByRole("dialog", { name: "Verificação em duas etapas" });
};

const signOut = async (page: Page) => {
  await page.getByRole("button", { name: "Menu do usuário" }).click();
  await page.getByRole("menuitem", { name: "Sair" }).click();
  await expect(page).toHaveURL(/\/login$/);
};

// Issue 22 §5: an agent turns on two-factor sign-in, signs out, and signs in again with a code from
// the secret shown for typing in (computed here, as the app would); an admin then resets it.
test("an agent enrols in two-factor sign-in, signs in with a code, and an admin resets it for a lost phone", async ({
  page,
  request,
  browser,
}) => {
  const email = `twofa-${runId()}@zapdesk.test`;
  const password = "twofa-pass";
  const name = `Two Factor ${runId()}`;
  const admin = await apiSession(request);
  await admin.post("/users", { name, email, password, profile: "user" });

  await logIn(page, email, password);
  const dialog = await openTwoFactor(page);
  await expect(dialog.getByText("A verificação em duas etapas está desativada")).toBeVisible();
  await dialog.getByRole("button", { name: "Ativar" }).click();
  await expect(dialog.getByRole("img", { name: "QR code para o aplicativo autenticador" })).toBeVisible();
  const secret = await dialog.getByRole("textbox", { name: "Chave secreta" }).inputValue();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await capture(page, "two-factor-enrol");
  await dialog.getByRole("textbox", { name: "Código do aplicativo", exact: true }).fill(totpAt(secret, new Date()));
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  const codes = dialog.getByRole("list", { name: "Códigos de recuperação" });
  await expect(codes.getByRole("listitem")).toHaveCount(10);
  await capture(page, "two-factor-recovery-codes");
  await dialog.getByRole("button", { name: "Já guardei" }).click();
  await expect(dialog.getByText(/Ativada desde/)).toBeVisible();
  await expect(dialog.getByText("Códigos de recuperação restantes: 10.")).toBeVisible();
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await signOut(page);

  // The password alone is no longer enough: the second step asks for a code. The confirming code was
  // spent; the next step's code is within the accepted window and was never used.
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("heading", { name: "Verificação em duas etapas" })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await capture(page, "two-factor-login");
  await page.getByLabel("Código do aplicativo ou de recuperação").fill(totpAt(secret, new Date(Date.now() + 30_000)));
  await page.getByRole("button", { name: "Verificar" }).click();
  await expect(page).toHaveURL(/\/$/);
  await signOut(page);

  // A lost phone: an admin resets it from the users page; the agent signs in with the password alone.
  const adminPage = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await adminPage.goto("/users");
  await adminPage.getByRole("searchbox", { name: "Pesquisar" }).fill(name);
  await adminPage.getByRole("button", { name: `Redefinir verificação em duas etapas: ${name}` }).click();
  await adminPage
    .getByRole("dialog", { name: `Redefinir a verificação em duas etapas de ${name}?` })
    .getByRole("button", { name: "Ok" })
    .click();
  await expect(adminPage.getByText(`Verificação em duas etapas de ${name} redefinida.`)).toBeVisible();
  await expect(adminPage.getByRole("button", { name: `Redefinir verificação em duas etapas: ${name}` })).toHaveCount(0);

  await logIn(page, email, password);
  await adminPage.context().close();
});
