import { expect } from "@playwright/test";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

// Issue 23 §3 (docs/menus.md): an admin builds a two-level menu in the editor; a customer walks it on
// the simulator; the ticket lands in the queue the second level names.
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;

test.setTimeout(180_000);

test("an admin builds a two-level menu; a customer navigates it and the ticket lands in the queue", async ({
  browser,
  request,
}) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const sales = await admin.createQueue(`Vendas ${run}`, color());
  const billing = await admin.createQueue(`Boletos ${run}`, color());
  const whatsappId = await admin.createSimulator([sales.id]);
  const connection = await admin.get<{ name: string }>(`/whatsapp/${whatsappId}`);

  const page = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto("/connections");
  await page.getByRole("button", { name: `Menu de ${connection.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Menu de ${connection.name}` });
  // A connection without a tree starts from its queues' one-level menu.
  await expect(dialog.getByTestId("menu-preview")).toContainText(`*1* - Vendas ${run}`);
  await dialog.getByLabel("Saudação").fill("Olá {{name}}! Escolha:");

  // Option 1 becomes a sub-menu whose option 1.1 hands over to Boletos.
  const first = dialog.getByTestId("menu-option-1");
  await first.getByRole("combobox", { name: "Leva a" }).first().click();
  await page.getByRole("option", { name: "Um submenu" }).click();
  await first.getByLabel("Texto do submenu").fill("Financeiro:");
  const sub = dialog.getByTestId("menu-option-1.1");
  await sub.getByLabel("Opção 1.1", { exact: true }).fill("Segunda via de boleto");
  await sub.getByRole("combobox", { name: "Fila" }).click();
  await page.getByRole("option", { name: `Boletos ${run}` }).click();
  await first.getByLabel("Opção 1", { exact: true }).fill("Financeiro");

  // A second first-level option: a person.
  await dialog.getByRole("button", { name: "Adicionar opção" }).last().click();
  const second = dialog.getByTestId("menu-option-2");
  await second.getByLabel("Opção 2", { exact: true }).fill("Falar com alguém");
  await second.getByRole("combobox", { name: "Leva a" }).click();
  await page.getByRole("option", { name: "Uma pessoa" }).click();
  await expect(dialog.getByTestId("menu-preview")).toHaveText("Olá {{name}}! Escolha:\n*1* - Financeiro\n*2* - Falar com alguém");
  await capture(page, "menu-editor");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Menu salvo.")).toBeVisible();

  // The customer walks it.
  const customer = `5511${String(Date.now()).slice(-7)}3`;
  const says = (body: string) => admin.customerWrites(whatsappId, { from: customer, name: "Bia", body });
  const received = async () => (await admin.phoneReceived(whatsappId, customer)).map((m) => m.body);
  await says("oi");
  await expect.poll(received).toEqual(["Olá Bia! Escolha:\n*1* - Financeiro\n*2* - Falar com alguém"]);
  await says("1");
  await expect.poll(async () => (await received()).at(-1)).toBe("Financeiro:\n*1* - Segunda via de boleto");
  await says("1");
  await expect
    .poll(async () => {
      const { tickets } = await admin.get<{ tickets: { contact: { number: string }; queueId: number | null }[] }>(
        "/tickets?status=pending&showAll=true",
      );
      return tickets.find((t) => t.contact.number === customer)?.queueId;
    })
    .toBe(billing.id);
});
