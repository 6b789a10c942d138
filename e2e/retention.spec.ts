import { expect } from "@playwright/test";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";

const run = runId();
test.setTimeout(240_000);

// Issue 22 §1: an admin previews a retention policy before saving it, places a legal hold on a
// customer from the conversation, and finds both in the audit trail. (What a sweep removes is
// proven against the database and the storage in retention.test.ts: a journey cannot age a ticket.)
test("an admin previews and saves a retention policy, holds a customer, and the trail shows both", async ({ page, request }) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const whatsappId = await admin.createSimulator([]);
  const customer = `5511${String(Date.now()).slice(-8)}`;
  const name = `Retenção ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name, body: "Preciso guardar esta conversa" });
  const { tickets } = await admin.get<{ tickets: { id: number; contact: { number: string } }[] }>(
    "/tickets?status=pending&showAll=true",
  );
  const ticketId = tickets.find((t) => t.contact.number === customer)!.id;

  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto("/Settings");
  const panel = page.getByRole("region", { name: "Retenção" });
  await expect(panel.getByText("Nenhuma política: tudo é guardado.")).toBeVisible({ timeout: 30_000 });
  await panel.getByRole("combobox", { name: "Política" }).click();
  await page.getByRole("option", { name: "Remover depois de um tempo" }).click();
  await panel.getByRole("spinbutton", { name: "Dias depois do fechamento" }).fill("3650");
  await panel.getByRole("combobox", { name: "Remover" }).click();
  await page.getByRole("option", { name: "Só os arquivos de mídia (as mensagens ficam)" }).click();
  await panel.getByRole("button", { name: "Prévia" }).click();
  // Nothing here was closed ten years ago.
  await expect(panel.getByText("Se rodasse hoje, removeria 0 arquivos e 0 mensagens de 0 tickets.")).toBeVisible();
  await panel.getByRole("button", { name: "Salvar" }).click();
  const current = panel.getByRole("list", { name: "Políticas em vigor" });
  await expect(current.getByText("Mídias removidas 3650 dias depois do fechamento")).toBeVisible();
  await capture(page, "retention-panel");

  // A legal hold from the conversation's contact panel.
  await page.goto(`/tickets/${ticketId}`);
  await page.getByRole("button", { name: `Dados do contato ${name}` }).click();
  const drawer = page.getByLabel("Dados do contato", { exact: true });
  await drawer.getByRole("button", { name: "Aplicar retenção legal" }).click();
  const dialog = page.getByRole("dialog", { name: "Aplicar retenção legal" });
  await dialog.getByLabel("Motivo (ex.: número do processo)").fill(`Processo ${run}`);
  await dialog.getByRole("button", { name: "Aplicar a retenção" }).click();
  await expect(drawer.getByText(`Processo ${run}`)).toBeVisible();
  await expect(drawer.getByRole("button", { name: "Liberar a retenção legal" })).toBeVisible();
  await capture(page, "legal-hold");

  // Both are in the audit trail.
  await page.goto("/audit");
  await expect(page.getByRole("heading", { name: "Trilha de auditoria" })).toBeVisible({ timeout: 30_000 });
  const table = page.getByRole("table", { name: "Trilha de auditoria" });
  await expect(table.getByRole("row").filter({ hasText: "Aplicou uma retenção legal" }).first()).toContainText(`Processo ${run}`);
  await expect(table.getByRole("row").filter({ hasText: "Alterou uma política de retenção" }).first()).toContainText(
    '"days":3650',
  );

  // Leave the shared server as it was: the hold released, everything kept.
  await page.goto(`/tickets/${ticketId}`);
  await page.getByRole("button", { name: `Dados do contato ${name}` }).click();
  await page.getByLabel("Dados do contato", { exact: true }).getByRole("button", { name: "Liberar a retenção legal" }).click();
  await expect(
    page.getByLabel("Dados do contato", { exact: true }).getByRole("button", { name: "Aplicar retenção legal" }),
  ).toBeVisible();
  await page.goto("/Settings");
  await panel.getByRole("combobox", { name: "Política" }).click();
  await page.getByRole("option", { name: "Guardar tudo" }).click();
  await panel.getByRole("button", { name: "Salvar" }).click();
  await expect(current.getByText("Tudo é guardado")).toBeVisible();
});
