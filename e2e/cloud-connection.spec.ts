import { expect } from "@playwright/test";
import { createWebhookDriver, payloads } from "../packages/server/test/graph-fake/index.js";
import { composer, waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";
import { cloudAccount } from "./support/graph-fake";

/** What the Graph API fake received on /{phone-number-id}/messages (sends and read receipts). */
async function sentToMeta(phoneNumberId: string): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${process.env.E2E_GRAPH_CONTROL}/sent?phoneNumberId=${phoneNumberId}`);
  return (await response.json()) as Record<string, unknown>[];
}

// The second journey writes on the connection the first one created (one Meta account in the fake).
test.describe.configure({ mode: "serial" });

test("an admin connects the Official API in the UI and answers a customer through it", async ({ page }) => {
  test.setTimeout(120_000);
  const run = runId();
  const account = cloudAccount();
  const name = `Oficial ${run}`;
  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);

  // The dialog: kind, Meta's ids and secrets; the verify token is generated; the webhook URL comes once saved.
  await page.goto("/connections");
  await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
  const dialog = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
  await dialog.getByLabel("Nome", { exact: true }).fill(name);
  await dialog.getByRole("radio", { name: "API oficial (Cloud)" }).check();
  await expect(dialog.getByText("A URL do webhook aparece aqui depois de salvar a conexão.")).toBeVisible();
  await dialog.getByLabel("ID do número de telefone").fill(account.phoneNumberId);
  await dialog.getByLabel("ID da conta do WhatsApp Business (WABA)").fill(account.businessAccountId);
  await dialog.getByLabel("Token de acesso").fill(account.accessToken);
  await dialog.getByLabel("Chave secreta do app").fill(account.appSecret);
  const verifyToken = await dialog.getByRole("textbox", { name: "Token de verificação" }).inputValue();
  expect(verifyToken).toMatch(/^[\w-]{32}$/);
  await dialog.getByRole("button", { name: "Adicionar" }).click();

  // Saved: the same dialog now edits the connection and shows the webhook URL to paste into Meta.
  const edit = page.getByRole("dialog", { name: "Editar WhatsApp" });
  const webhookField = edit.getByRole("textbox", { name: "URL de retorno (webhook)" });
  await expect(webhookField).toHaveValue(/\/api\/webhooks\/whatsapp\/\d+$/);
  const webhookUrl = await webhookField.inputValue();
  await expect(edit.getByText("Definido. Deixe em branco para manter o atual.")).toHaveCount(2);
  await capture(page, "cloud-connection-dialog");
  await edit.getByRole("button", { name: "Cancelar" }).click();

  // The token works against the fake: the connection comes up, with only the actions a Cloud connection has.
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByRole("img", { name: "Conectado" })).toBeVisible({ timeout: 30_000 });
  await expect(row.getByRole("cell", { name: "API oficial" })).toBeVisible();
  await expect(row.getByRole("button", { name: `Verificar ${name} de novo` })).toBeVisible();
  await expect(row.getByRole("button", { name: /QR Code|Desconectar/ })).toHaveCount(0);

  // Meta's handshake with the token the dialog generated.
  const challenge = await fetch(`${webhookUrl}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=e2e${run}`);
  expect(await challenge.text()).toBe(`e2e${run}`);

  // A customer writes: Meta posts the signed webhook; the ticket waits for the admin.
  const meta = createWebhookDriver({
    url: webhookUrl,
    appSecret: account.appSecret,
    business: { ...account, displayPhoneNumber: "15550100" },
  });
  const customer = `5511${String(Date.now()).slice(-8)}`;
  const customerName = `Cliente Cloud ${run}`;
  const [delivery] = await meta.deliver(
    meta.message(payloads.text({ from: customer, body: "Oi, meu pedido chegou?" }), customerName),
  );
  expect(delivery.status).toBe(200);

  await page.goto("/tickets");
  await page.getByRole("tab", { name: /Aguardando/ }).click();
  const ticketRow = waitingList(page).getByRole("listitem", { name: customerName });
  await expect(ticketRow.getByText("Oi, meu pedido chegou?")).toBeVisible();
  await ticketRow.getByRole("button", { name: "Aceitar" }).click();

  // The 24-hour window has just opened; the agent answers in free form.
  await expect(page.getByRole("status").filter({ hasText: "Respostas livres por mais" })).toContainText(/23 h 5\d min/);
  await composer(page).fill("Chegou sim, obrigado por esperar!");
  await composer(page).press("Enter");
  await expect(page.getByRole("log").getByRole("article").filter({ hasText: "Chegou sim, obrigado por esperar!" })).toBeVisible();
  await capture(page, "cloud-conversation");

  // Meta received the reply for this customer, as a Cloud API text message.
  await expect
    .poll(async () => (await sentToMeta(account.phoneNumberId)).filter((m) => m.type === "text" && m.to === customer))
    .toEqual([
      expect.objectContaining({
        messaging_product: "whatsapp",
        to: customer,
        type: "text",
        text: expect.objectContaining({ body: expect.stringContaining("Chegou sim, obrigado por esperar!") }),
      }),
    ]);
});

test("a conversation started on the Cloud connection goes out as an approved template", async ({ page, request }) => {
  const run = runId();
  const account = cloudAccount();
  const api = new ZapdeskApi(request);
  await api.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const connections = await api.get<{ id: number; cloud: { phoneNumberId: string } | null }[]>("/whatsapp");
  const cloud = connections.find((c) => c.cloud?.phoneNumberId === account.phoneNumberId);
  expect(cloud, "created by the journey above").toBeDefined();
  const customer = `5531${String(Date.now()).slice(-8)}`;
  const contact = await api.post<{ id: number }>("/contacts", { name: `Novo Cloud ${run}`, number: customer, email: "" });
  const ticket = await api.post<{ id: number }>("/tickets", { contactId: contact.id, status: "open", whatsappId: cloud?.id });

  // The customer never wrote: no free-form text, only an approved template.
  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto(`/tickets/${ticket.id}`);
  await expect(page.getByText(/A janela de 24 horas com este cliente está fechada/)).toBeVisible();
  await expect(composer(page)).toHaveCount(0);
  await page.getByRole("button", { name: "Enviar modelo" }).click();
  const dialog = page.getByRole("dialog", { name: "Enviar um modelo aprovado" });
  await dialog.getByRole("button", { name: "Atualizar modelos" }).click();
  await dialog.getByRole("button", { name: "pedido_pronto (pt_BR)" }).click();
  await dialog.getByRole("textbox", { name: "Variável {{1}}" }).fill("Joana");
  await expect(dialog.getByRole("region", { name: "Pré-visualização" })).toContainText("Olá Joana, seu pedido está pronto.");
  await capture(page, "cloud-template");
  await dialog.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(dialog).toHaveCount(0);

  await expect
    .poll(async () => (await sentToMeta(account.phoneNumberId)).filter((m) => m.type === "template" && m.to === customer))
    .toEqual([
      expect.objectContaining({
        template: expect.objectContaining({
          name: "pedido_pronto",
          language: expect.objectContaining({ code: "pt_BR" }),
          components: [expect.objectContaining({ type: "body", parameters: [{ type: "text", text: "Joana" }] })],
        }),
      }),
    ]);
});
