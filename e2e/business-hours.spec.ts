import { expect } from "@playwright/test";
import { waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

const run = runId();
const NOTICE = "Estamos fechados hoje (feriado). Sua mensagem foi recebida e responderemos no próximo dia útil.";

/** Today's date in São Paulo, "YYYY-MM-DD": the holiday that closes the queue now. */
const todayInSaoPaulo = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());

test.setTimeout(180_000);

test("an admin closes a queue for today; the customer gets the out-of-hours message once and the agent still gets the ticket", async ({
  browser,
  request,
}) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);

  // The admin creates the queue with business hours through the form.
  await page.goto("/Queues");
  // The queue list is loaded before the form opens: the colour picker marks the colours it holds.
  await expect(page.getByRole("button", { name: "Adicionar fila" })).toBeVisible();
  await expect(page.locator('tr[aria-busy="true"]')).toHaveCount(0);
  await page.getByRole("button", { name: "Adicionar fila" }).click();
  const dialog = page.getByRole("dialog");
  const queueName = `Plantão ${run}`;
  await dialog.getByLabel("Nome").fill(queueName);
  // Colours are unique per queue; the picker marks those other queues hold. Any free one will do.
  const colours = dialog.getByRole("radio", { disabled: false });
  await colours.nth(Math.floor(Math.random() * (await colours.count()))).click();
  await dialog.getByRole("switch", { name: "Atender só em horários definidos" }).click();
  const zone = dialog.getByRole("combobox", { name: "Fuso horário" });
  await zone.fill("America/Sao_Pa");
  await page.getByRole("option", { name: "America/Sao_Paulo" }).click();
  await expect(zone).toHaveValue("America/Sao_Paulo");
  await capture(page, "business-hours-form-top");
  // Monday to Friday 9–18 by default; a lunch break on Monday; Saturday until midnight.
  await expect(dialog.getByRole("group", { name: "domingo" }).getByText("Fechado")).toBeVisible();
  await dialog.getByLabel("segunda-feira, intervalo 1, fim").fill("12:00");
  await dialog.getByRole("button", { name: "Adicionar intervalo em segunda-feira" }).click();
  await dialog.getByLabel("segunda-feira, intervalo 2, início").fill("13:00");
  await dialog.getByLabel("segunda-feira, intervalo 2, fim").fill("18:00");
  // Today is a holiday: closed now, whatever the weekday and hour.
  await dialog.getByRole("button", { name: "Adicionar feriado" }).click();
  await dialog.getByLabel("Data").fill(todayInSaoPaulo());
  await dialog.getByLabel("Nome (opcional)").fill("Feriado do teste");
  const message = dialog.getByLabel("Mensagem fora do horário");
  await message.fill(NOTICE);
  await capture(page, "business-hours-form");
  await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
  await expect(page.getByText("Fila salva com sucesso")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: queueName });
  await expect(row.getByText("Fechada agora")).toBeVisible();
  await capture(page, "business-hours-queues");

  const queues =
    await admin.get<{ id: number; name: string; schedule: { days: unknown[]; holidays: unknown[] } | null }[]>("/queue");
  const queue = queues.find((q) => q.name === queueName);
  expect(queue?.schedule?.days).toHaveLength(6);
  expect(queue?.schedule?.holidays).toEqual([{ date: todayInSaoPaulo(), name: "Feriado do teste" }]);

  // An agent of that queue, a connection routing to it.
  const agentEmail = `plantao-${run}@e2e.local`;
  await admin.createUser(`Paula ${run}`, agentEmail, "secret123", [queue?.id as number]);
  const whatsappId = await admin.createSimulator([queue?.id as number]);
  const agent = await newSession(browser, agentEmail, "secret123");
  await agent.goto("/tickets");
  await agent.getByRole("tab", { name: /Aguardando/ }).click();

  // The customer writes three times: one out-of-hours message in all.
  const customer = `5511${String(Date.now()).slice(-7)}7`;
  const customerName = `Cliente ${run}`;
  for (const body of ["Olá, alguém aí?", "Preciso de uma segunda via", "Obrigado"]) {
    await admin.customerWrites(whatsappId, { from: customer, name: customerName, body });
  }
  await expect.poll(async () => (await admin.phoneReceived(whatsappId, customer)).map((m) => m.body)).toEqual([NOTICE]);
  await page.waitForTimeout(1500);
  expect((await admin.phoneReceived(whatsappId, customer)).map((m) => m.body)).toEqual([NOTICE]);

  // The ticket still arrives, pending in the queue, for the agent.
  const ticketRow = waitingList(agent).getByRole("listitem", { name: customerName });
  await expect(ticketRow).toBeVisible();
  await expect(ticketRow.getByText("Obrigado")).toBeVisible();
  await capture(agent, "business-hours-agent-waiting");
  await ticketRow.getByRole("button", { name: "Aceitar" }).click();
  await expect(agent).toHaveURL(/\/tickets\/\d+$/);
  const log = agent.getByRole("log");
  await expect(log.getByText(NOTICE)).toHaveCount(1);
  await expect(log.getByText("Preciso de uma segunda via")).toBeVisible();
  await capture(agent, "business-hours-conversation");

  // The dashboard shows the waiting time card.
  await page.goto("/");
  await expect(page.getByRole("group", { name: "Espera média (horário comercial)" })).toBeVisible();
  await capture(page, "business-hours-dashboard");
});
