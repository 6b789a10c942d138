import { expect } from "@playwright/test";
import { waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, nav, newSession, runId, test } from "./support/app";

// Issue 23 §6: an admin creates a closing reason and makes its queue require one; the agent cannot
// resolve without it, resolves with it and a value; the dashboard counts and sums it.
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
const number = () => `5531${String(Date.now()).slice(-7)}7`;

test.setTimeout(240_000);

test("an admin creates a reason and requires it in a queue; an agent resolves with it; the dashboard shows it", async ({
  browser,
  page,
  request,
}) => {
  const reason = `Venda ${run}`;
  const queueName = `Comercial ${run}`;
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await admin.createQueue(queueName, color());
  await admin.createUser(`Rita ${run}`, `rita-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await admin.createSimulator([queue.id]);

  await test.step("the admin creates a reason that asks for a value", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await nav(page).getByRole("link", { name: "Motivos de encerramento" }).click();
    await expect(page).toHaveURL(/\/closing-reasons$/);
    await page.getByRole("button", { name: "Adicionar motivo" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Nome").fill(reason);
    await dialog.getByLabel(/Pede um valor/).check();
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await expect(dialog).toHaveCount(0);
    const row = page.getByRole("table", { name: "Motivos de encerramento" }).getByRole("row", { name: new RegExp(reason) });
    await expect(row).toContainText("Sim");
    await expect(row).toContainText("Ativo");
    await capture(page, "closing-reasons-admin");
  });

  await test.step("the admin makes the queue require a closing reason", async () => {
    await nav(page).getByRole("link", { name: "Filas" }).click();
    await page.getByRole("button", { name: `Editar ${queueName}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("combobox", { name: "Motivo de encerramento" }).click();
    await page.getByRole("option", { name: "Obrigatório" }).click();
    await dialog.getByRole("button", { name: "Salvar", exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect
      .poll(async () => (await admin.get<{ closingReason: string }>(`/queue/${queue.id}`)).closingReason)
      .toBe("required");
  });

  const customer = `Paula ${run}`;
  await admin.customerWrites(whatsappId, { from: number(), name: customer, body: "Quero fechar o pedido" });
  const agent = await newSession(browser, `rita-${run}@e2e.local`, "secret123");

  await test.step("the agent cannot resolve without a reason, then resolves with it and a value", async () => {
    await agent.goto("/tickets");
    await agent.getByRole("tab", { name: /Aguardando/ }).click();
    await waitingList(agent).getByRole("listitem", { name: customer }).getByRole("button", { name: "Aceitar" }).click();
    // A loaded machine takes its time to bring the conversation's pane (a lazy chunk, then the ticket).
    await expect(agent.getByRole("heading", { name: new RegExp(customer) })).toBeVisible({ timeout: 30_000 });
    const ticketId = Number(agent.url().split("/").pop());

    await agent.getByRole("button", { name: "Resolver", exact: true }).click();
    const picker = agent.getByRole("dialog", { name: "Resolver: motivo de encerramento" });
    await picker.getByRole("button", { name: "Resolver" }).click();
    await expect(picker.getByText("Esta fila pede um motivo de encerramento.")).toBeVisible();
    await picker.getByRole("combobox", { name: /Motivo de encerramento/ }).click();
    await agent.getByRole("option", { name: reason }).click();
    await picker.getByRole("textbox", { name: /Valor/ }).fill("150,50");
    await capture(agent, "closing-reasons-picker");
    await picker.getByRole("button", { name: "Resolver" }).click();
    await expect(picker).toHaveCount(0);

    await expect
      .poll(
        async () =>
          await admin.get<{ status: string; closingReason: { name: string; value: number } | null }>(`/tickets/${ticketId}`),
      )
      .toMatchObject({ status: "closed", closingReason: { name: reason, value: 150.5 } });
  });

  await test.step("the dashboard counts the reason per queue and per agent, with the value", async () => {
    await nav(page).getByRole("link", { name: "Dashboard" }).click();
    const card = page.getByRole("region", { name: "Motivos de encerramento" });
    await card.scrollIntoViewIfNeeded();
    const byQueue = card.getByRole("table", { name: "Por fila" });
    await expect(byQueue.getByRole("row", { name: new RegExp(queueName) })).toContainText(reason, { timeout: 30_000 });
    await expect(byQueue.getByRole("row", { name: new RegExp(queueName) })).toContainText("150,50");
    const byAgent = card.getByRole("table", { name: "Por atendente" });
    await expect(byAgent.getByRole("row", { name: new RegExp(`Rita ${run}`) })).toContainText("150,50");
    await capture(page, "closing-reasons-dashboard");
  });
});
