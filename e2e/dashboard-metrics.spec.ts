import { expect, type Page } from "@playwright/test";
import { composer, waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

// Issue 13 item 6: service times on the dashboard (first response, resolution, waiting), per queue and agent.
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;

test.setTimeout(240_000);

/** The customer writes; the agent accepts, answers and (optionally) resolves. */
async function conversation(
  api: ZapdeskApi,
  agent: Page,
  whatsappId: number,
  customer: { number: string; name: string },
  resolve: boolean,
) {
  await api.customerWrites(whatsappId, { from: customer.number, name: customer.name, body: "Preciso de ajuda com meu pedido" });
  await agent.goto("/tickets");
  await agent.getByRole("tab", { name: /Aguardando/ }).click();
  await waitingList(agent).getByRole("listitem", { name: customer.name }).getByRole("button", { name: "Aceitar" }).click();
  await expect(agent).toHaveURL(/\/tickets\/\d+$/);
  await composer(agent).fill("Olá! Já estou verificando.");
  await composer(agent).press("Enter");
  await expect(agent.getByRole("log").getByText("Olá! Já estou verificando.")).toBeVisible();
  if (resolve) {
    const ticketId = Number(new URL(agent.url()).pathname.split("/").pop());
    await agent.getByRole("button", { name: "Resolver" }).click();
    // On to the next conversation (issue 13), or the list when there is none.
    await expect(agent).not.toHaveURL(new RegExp(`/tickets/${ticketId}$`));
  }
}

const section = (page: Page) => page.getByRole("region", { name: "Tempos de atendimento" });

async function pick(page: Page, label: string, option: string) {
  await section(page).getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test("admin and agents see first response, resolution and waiting per queue and agent, filtered by queue and agent", async ({
  browser,
  request,
}) => {
  const api = new ZapdeskApi(request);
  await api.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const sales = await api.createQueue(`Vendas ${run}`, color());
  const support = await api.createQueue(`Suporte ${run}`, color());
  const ana = { name: `Ana ${run}`, email: `ana-${run}@e2e.local` };
  const bruno = { name: `Bruno ${run}`, email: `bruno-${run}@e2e.local` };
  await api.createUser(ana.name, ana.email, "secret123", [sales.id]);
  await api.createUser(bruno.name, bruno.email, "secret123", [support.id]);
  const salesLine = await api.createSimulator([sales.id]);
  const supportLine = await api.createSimulator([support.id]);

  const anaPage = await newSession(browser, ana.email, "secret123");
  const brunoPage = await newSession(browser, bruno.email, "secret123");
  const tail = String(Date.now()).slice(-6);
  await conversation(api, anaPage, salesLine, { number: `55119${tail}1`, name: `Cliente A ${run}` }, true);
  await conversation(api, anaPage, salesLine, { number: `55119${tail}2`, name: `Cliente B ${run}` }, false);
  await conversation(api, brunoPage, supportLine, { number: `55119${tail}3`, name: `Cliente C ${run}` }, true);

  // The admin: the section sits under the spec's charts; filtering by the sales queue leaves Ana's two tickets.
  const admin = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const metrics = section(admin);
  await expect(metrics).toBeVisible();
  await expect(admin.getByRole("figure")).toHaveCount(4); // the spec's four charts, unchanged
  await expect(metrics.getByRole("region", { name: "Tempos por dia" })).toBeVisible();
  const byQueue = metrics.getByRole("table", { name: "Por fila" });
  await expect(byQueue.getByRole("row", { name: new RegExp(`^Vendas ${run} 2 `) })).toBeVisible();
  await expect(byQueue.getByRole("row", { name: new RegExp(`^Suporte ${run} 1 `) })).toBeVisible();
  const byAgent = metrics.getByRole("table", { name: "Por atendente" });
  await expect(byAgent.getByRole("row", { name: new RegExp(`^${ana.name} 2 `) })).toBeVisible();
  await expect(byAgent.getByRole("row", { name: new RegExp(`^${bruno.name} 1 `) })).toBeVisible();
  await metrics.scrollIntoViewIfNeeded();
  await capture(admin, "dashboard-metrics-admin");

  await pick(admin, "Fila", `Vendas ${run}`);
  await expect(byAgent.getByRole("row")).toHaveCount(3); // two header rows and Ana's
  await expect(byAgent.getByRole("row", { name: new RegExp(`^${ana.name} 2 `) })).toBeVisible();
  // Two first responses, one resolution: the cards count what they measured.
  await expect(metrics.getByRole("group", { name: "Primeira resposta" })).toContainText(/· 2 tickets$/);
  await expect(metrics.getByRole("group", { name: "Resolução" })).toContainText(/· 1 ticket$/);
  await expect(metrics.getByTestId("metric-firstResponse-median")).toHaveText(/^\d+ (s|min)$/);
  await capture(admin, "dashboard-metrics-admin-queue");

  await pick(admin, "Fila", "Todas as filas");
  await pick(admin, "Atendente", bruno.name);
  await expect(byQueue.getByRole("row", { name: new RegExp(`^Suporte ${run} 1 `) })).toBeVisible();
  await expect(byQueue.getByRole("row")).toHaveCount(3);
  await pick(admin, "Período", "Últimos 7 dias");
  await expect(byAgent.getByRole("row", { name: new RegExp(`^${bruno.name} 1 `) })).toBeVisible();
  await capture(admin, "dashboard-metrics-admin-agent");

  // An agent: their queue's tickets only, and the filters offer their queue and themselves.
  await brunoPage.goto("/");
  const mine = section(brunoPage);
  await expect(
    mine.getByRole("table", { name: "Por atendente" }).getByRole("row", { name: new RegExp(`^${bruno.name} 1 `) }),
  ).toBeVisible();
  await expect(mine.getByRole("table", { name: "Por fila" })).not.toContainText(`Vendas ${run}`);
  await mine.getByRole("combobox", { name: "Atendente" }).click();
  await expect(brunoPage.getByRole("option")).toHaveText(["Todos os atendentes", bruno.name]);
  await brunoPage.keyboard.press("Escape");
  await mine.getByRole("combobox", { name: "Fila" }).click();
  await expect(brunoPage.getByRole("option", { name: `Vendas ${run}` })).toHaveCount(0);
  await expect(brunoPage.getByRole("option", { name: `Suporte ${run}` })).toBeVisible();
  await brunoPage.keyboard.press("Escape");
  await mine.scrollIntoViewIfNeeded();
  await capture(brunoPage, "dashboard-metrics-agent");
});
