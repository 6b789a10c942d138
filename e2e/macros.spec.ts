import { expect } from "@playwright/test";
import { waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, nav, newSession, runId, test } from "./support/app";

// Issue 23 §2: an agent writes a personal macro (a note, a message, return to the queue) and runs it
// on a ticket from its options menu; the customer gets the message, the note stays internal.
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
const number = () => `5531${String(Date.now()).slice(-7)}3`;

test.setTimeout(240_000);

test("an agent writes a macro and runs it on a ticket in one click", async ({ browser, request }) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await admin.createQueue(`Suporte ${run}`, color());
  await admin.createUser(`Bia ${run}`, `bia-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await admin.createSimulator([queue.id]);
  const agent = await newSession(browser, `bia-${run}@e2e.local`, "secret123");
  const macroName = `Pedido ${run}`;

  await test.step("the agent writes a personal macro", async () => {
    await nav(agent).getByRole("link", { name: "Macros" }).click();
    await expect(agent).toHaveURL(/\/macros$/);
    await agent.getByRole("button", { name: "Adicionar macro" }).click();
    const dialog = agent.getByRole("dialog", { name: "Adicionar macro" });
    await dialog.getByLabel("Nome").fill(macroName);
    await dialog.getByLabel("Texto").fill("Pedido conferido");
    await dialog.getByRole("button", { name: "Adicionar ação" }).click();
    await dialog.getByRole("combobox", { name: "Ação 2" }).click();
    await agent.getByRole("option", { name: "Enviar mensagem" }).click();
    await dialog.getByLabel("Texto").nth(1).fill("Seu pedido já está separado!");
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await expect(dialog).toHaveCount(0);
    const row = agent.getByRole("table", { name: "Macros" }).getByRole("row", { name: new RegExp(macroName) });
    await expect(row).toContainText("Pessoal");
    await expect(row).toContainText("Adicionar nota privada · Enviar mensagem");
    await capture(agent, "macros-page");
  });

  const from = number();
  const customer = `Caio ${run}`;
  await admin.customerWrites(whatsappId, { from, name: customer, body: "Cadê meu pedido?" });

  await test.step("the agent runs it on the ticket from the options menu", async () => {
    await agent.goto("/tickets");
    await agent.getByRole("tab", { name: /Aguardando/ }).click();
    await waitingList(agent).getByRole("listitem", { name: customer }).getByRole("button", { name: "Aceitar" }).click();
    await expect(agent.getByRole("heading", { name: new RegExp(customer) })).toBeVisible({ timeout: 30_000 });
    await agent.getByRole("button", { name: "Opções do ticket" }).click();
    await agent.getByRole("menuitem", { name: "Executar macro" }).click();
    const dialog = agent.getByRole("dialog", { name: "Executar macro" });
    await dialog.getByRole("button", { name: new RegExp(macroName) }).click();
    await expect(agent.getByText(`${macroName}: 2 ações aplicadas.`)).toBeVisible();
    await expect(agent.getByText("Pedido conferido")).toBeVisible();
    await expect(agent.getByText("Seu pedido já está separado!").first()).toBeVisible();
    await capture(agent, "macros-run");
    await expect
      .poll(async () => (await admin.phoneReceived(whatsappId, from)).map((m: { body: string }) => m.body), { timeout: 30_000 })
      .toContain("Seu pedido já está separado!");
  });
});
