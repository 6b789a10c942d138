import { expect } from "@playwright/test";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, nav, newSession, runId, test } from "./support/app";

// Issue 23 §1: an admin writes an automation rule, dry-runs it over the last 7 days (it finds the
// ticket of a customer who already asked to cancel), enables it; the next customer who asks fires it
// (a private note on their ticket), and the rule's log shows the firing.
const run = runId();
const number = (n: number) => `5532${String(Date.now()).slice(-6)}${n}4`;

test.setTimeout(240_000);

test("an admin dry-runs a rule, enables it, and a customer's message fires it", async ({ browser, request }) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  // A queue of its own: a ticket without a queue is in every agent's waiting list, and the
  // journeys after this one (conversation.spec.ts) start from an empty one.
  const queue = await admin.createQueue(`Cancelamentos ${run}`, "#8e24aa");
  const whatsappId = await admin.createSimulator([queue.id]);
  const earlier = `Ana ${run}`;
  await admin.customerWrites(whatsappId, { from: number(1), name: earlier, body: `quero cancelar ${run}` });
  const page = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const ruleName = `Cancelamentos ${run}`;

  await test.step("the admin writes the rule and dry-runs it", async () => {
    await nav(page).getByRole("link", { name: "Automação" }).click();
    await expect(page).toHaveURL(/\/automation$/);
    await page.getByRole("button", { name: "Adicionar regra" }).click();
    const dialog = page.getByRole("dialog", { name: "Adicionar regra" });
    await dialog.getByLabel("Nome").fill(ruleName);
    await dialog.getByRole("button", { name: "Adicionar condição" }).click();
    await dialog.getByLabel("Valor").fill(`cancelar ${run}`);
    await dialog.getByRole("combobox", { name: "Ação 1" }).click();
    await page.getByRole("option", { name: "Adicionar nota privada" }).click();
    await dialog.getByLabel("Texto").fill("Cliente pediu cancelamento.");
    await dialog.getByRole("button", { name: "Simular" }).click();
    const result = dialog.getByRole("region", { name: "Simulação: últimos 7 dias" });
    await expect(result).toContainText(earlier);
    await expect(result).toContainText("Executaria");
    await capture(page, "automation-rules-dry-run");
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await expect(dialog).toHaveCount(0);
  });

  const later = number(2);
  await test.step("enabled, it fires on the next customer who asks", async () => {
    const row = page.getByRole("table", { name: "Regras de automação" }).getByRole("row", { name: new RegExp(ruleName) });
    await expect(row).toContainText("Chega uma mensagem");
    await row.getByLabel(`Ativar ${ruleName}`).click();
    await expect(row.getByLabel(`Ativar ${ruleName}`)).toBeChecked();
    await admin.customerWrites(whatsappId, { from: later, name: `Caio ${run}`, body: `preciso cancelar ${run}` });
    const { rules } = await admin.get<{ rules: { id: number; name: string }[] }>("/automation-rules");
    const id = rules.find((r) => r.name === ruleName)?.id;
    await expect
      .poll(
        async () => (await admin.get<{ runs: { outcome: string }[] }>(`/automation-rules/${id}/log`)).runs.map((r) => r.outcome),
        {
          timeout: 30_000,
        },
      )
      .toContain("done");
  });

  await test.step("the log shows the firing", async () => {
    const row = page.getByRole("table", { name: "Regras de automação" }).getByRole("row", { name: new RegExp(ruleName) });
    await row.getByRole("button", { name: `Histórico de ${ruleName}` }).click();
    const log = page.getByRole("dialog", { name: `Histórico: ${ruleName}` });
    await expect(log).toContainText("Executou");
    await expect(log).toContainText(`preciso cancelar ${run}`);
    await capture(page, "automation-rules-log");
  });
});
