import { expect } from "@playwright/test";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";

// Issue 22 §3: an admin gives a connection a consent message with the privacy notice's link; a new
// customer is asked, answers, and later writes an opt-out word; the contact drawer shows each step live.
const run = runId();
test.setTimeout(240_000);

test("an admin sets a consent message; the customer is asked, accepts, then opts out; the drawer shows it live", async ({
  page,
  request,
}) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const whatsappId = await admin.createSimulator([]);
  const { name: connectionName } = await admin.get<{ name: string }>(`/whatsapp/${whatsappId}`);
  const privacy = `https://loja-${run}.example/privacidade`;

  await test.step("the admin gives the connection a consent message in Settings", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto("/Settings");
    const panel = page.getByRole("region", { name: "Consentimento e descadastro" });
    // A loaded machine takes its time to bring the settings page (a lazy chunk, then five lists).
    await expect(panel.getByRole("textbox", { name: "Palavras de descadastro" })).toHaveValue(/SAIR/, { timeout: 60_000 });
    await panel.getByRole("combobox", { name: "Conexão ou fila" }).click();
    await page.getByRole("option", { name: `Conexão: ${connectionName}` }).click();
    await panel.getByRole("textbox", { name: "Endereço do aviso de privacidade" }).fill(privacy);
    await capture(page, "consent-settings");
    await panel.getByRole("button", { name: "Salvar" }).nth(1).click();
    await expect
      .poll(async () => (await admin.get<{ configs: { whatsappId: number | null }[] }>("/consent/settings")).configs)
      .toContainEqual(expect.objectContaining({ whatsappId, privacyUrl: privacy, enabled: true }));
  });

  const customer = `5511${String(Date.now()).slice(-7)}4`;
  const name = `Clara ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name, body: "Olá, quero saber do meu pedido" });
  await expect
    .poll(async () => (await admin.phoneReceived(whatsappId, customer)).map((m) => m.body).join("\n"))
    .toContain(privacy);

  const { tickets } = await admin.get<{ tickets: { id: number; contact: { number: string } }[] }>(
    "/tickets?status=pending&showAll=true",
  );
  const ticketId = tickets.find((t) => t.contact.number === customer)?.id;

  await test.step("the contact drawer shows the question, then the answer and the opt-out as they come", async () => {
    await page.goto(`/tickets/${ticketId}`);
    await page.getByRole("button", { name: "Aceitar" }).click({ timeout: 60_000 });
    await page.getByRole("button", { name: `Dados do contato ${name}` }).click();
    const consent = page.getByRole("region", { name: "Consentimento (LGPD)" });
    await expect(consent.getByText(/Pergunta de consentimento enviada/)).toBeVisible();
    await admin.customerWrites(whatsappId, { from: customer, name, body: "Sim!" });
    await expect(consent.getByText(/^Aceitou/)).toBeVisible();
    await admin.customerWrites(whatsappId, { from: customer, name, body: "PARAR" });
    await expect(consent.getByRole("status")).toContainText("Pediu para não receber mensagens automáticas");
    await capture(page, "consent-drawer");
  });
});
