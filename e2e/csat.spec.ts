import { expect } from "@playwright/test";
import { waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, nav, newSession, runId, test } from "./support/app";

// Issue 11 item 4: the satisfaction survey, from the admin's setting to the dashboard.
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
const QUESTION = "Como você avalia o nosso atendimento? Responda com um número de 1 a 5.";

test.setTimeout(180_000);

test("admin turns the survey on, an agent resolves, the customer answers 5 and the dashboard shows it", async ({
  browser,
  request,
}) => {
  const api = new ZapdeskApi(request);
  await api.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await api.createQueue(`CSAT ${run}`, color());
  const agentName = `Carla ${run}`;
  await api.createUser(agentName, `carla-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await api.createSimulator([queue.id]);
  const connection = await api.get<{ name: string }>(`/whatsapp/${whatsappId}`);

  // The admin switches the survey on in the connection's dialog: the suggested question names the scale.
  const admin = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await nav(admin).getByRole("link", { name: "Conexões" }).click();
  await admin.getByRole("button", { name: `Editar ${connection.name}` }).click();
  const dialog = admin.getByRole("dialog", { name: "Editar WhatsApp" });
  const survey = dialog.getByRole("group", { name: "Pesquisa de satisfação" });
  await survey.getByRole("switch", { name: "Enviar pesquisa de satisfação ao finalizar o atendimento" }).check();
  await expect(survey.getByLabel("Pergunta ao cliente")).toHaveValue(QUESTION);
  await survey.getByLabel("Prazo para responder (minutos)").fill("60");
  await survey.scrollIntoViewIfNeeded();
  await capture(admin, "csat-connection-form");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(admin.getByText("WhatsApp salvo com sucesso.")).toBeVisible();
  await expect
    .poll(async () => await api.get<{ ratingMessage: string; ratingTimeoutMinutes: number }>(`/whatsapp/${whatsappId}`))
    .toMatchObject({ ratingMessage: QUESTION, ratingTimeoutMinutes: 60 });

  // A customer writes; the agent takes the ticket and resolves it.
  const customer = `5511${String(Date.now()).slice(-7)}7`;
  const customerName = `Rafael ${run}`;
  await api.customerWrites(whatsappId, { from: customer, name: customerName, body: "Meu pedido não chegou" });
  const agent = await newSession(browser, `carla-${run}@e2e.local`, "secret123");
  await agent.goto("/tickets");
  await agent.getByRole("tab", { name: /Aguardando/ }).click();
  const row = waitingList(agent).getByRole("listitem", { name: customerName });
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(agent).toHaveURL(/\/tickets\/\d+$/);
  const ticketId = Number(agent.url().split("/").pop());
  await agent.getByRole("button", { name: "Resolver" }).click();
  await expect(agent).not.toHaveURL(new RegExp(`/tickets/${ticketId}$`));

  // The customer's phone gets the question and answers 5: no new ticket, the resolved one is rated.
  await expect.poll(async () => (await api.phoneReceived(whatsappId, customer)).map((m) => m.body)).toEqual([QUESTION]);
  await api.customerWrites(whatsappId, { from: customer, name: customerName, body: "5" });
  await expect
    .poll(async () => (await api.get<{ status: string; rating: number | null }>(`/tickets/${ticketId}`)).rating)
    .toBe(5);
  expect((await api.get<{ status: string }>(`/tickets/${ticketId}`)).status).toBe("closed");
  await agent.getByRole("tab", { name: "Resolvidos" }).click();
  const resolved = agent.getByRole("list", { name: "Resolvidos" }).getByRole("button", { name: customerName });
  await expect(resolved.getByRole("img", { name: "Avaliação do cliente: 5 de 5" })).toBeVisible();
  // The answer opened nothing: the customer's only ticket is the resolved one.
  const search = await api.get<{ tickets: { id: number; contact: { number: string } }[] }>(
    `/tickets?showAll=true&searchParam=${customer}`,
  );
  expect(search.tickets.filter((x) => x.contact.number === customer).map((x) => x.id)).toEqual([ticketId]);
  await resolved.click();
  await expect(agent.getByRole("heading", { name: new RegExp(customerName) })).toContainText(`#${ticketId}`);
  await expect(
    agent.getByRole("heading", { name: new RegExp(customerName) }).getByRole("img", { name: "Avaliação do cliente: 5 de 5" }),
  ).toBeVisible();
  await expect(agent.getByRole("log").getByText(QUESTION)).toBeVisible();
  await expect(agent.getByRole("log").getByText("5", { exact: true })).toBeVisible();
  await capture(agent, "csat-rated-ticket");

  // The dashboard: the month's average and the agent's and queue's rows.
  await nav(admin).getByRole("link", { name: "Dashboard" }).click();
  const card = admin.getByRole("region", { name: "Satisfação dos clientes (CSAT)" });
  await expect(card).toBeVisible();
  const byAgent = card.getByRole("table", { name: "Por atendente" });
  await expect(byAgent.getByRole("row", { name: new RegExp(`${agentName} 5\\.00 1`) })).toBeVisible();
  const byQueue = card.getByRole("table", { name: "Por fila" });
  await expect(byQueue.getByRole("row", { name: new RegExp(`CSAT ${run} 5\\.00 1`) })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await capture(admin, "csat-dashboard");
});
