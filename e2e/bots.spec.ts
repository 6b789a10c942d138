import { expect } from "@playwright/test";
import { startTypebotFake, type TypebotFake } from "../packages/server/test/typebot-fake/server";
import { waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

// Issue 23 §4 (docs/bots.md): an admin gives a queue a Typebot flow in the queue form; a new customer
// talks with the bot, which asks for the order number and hands over at the end of its flow; the
// ticket waits in the queue and the conversation shows the bot's messages, labelled. While the bot
// holds the ticket, an agent of the queue does not see it waiting (the admin does); the handover
// brings it into the agent's waiting list live.
const run = runId();
let typebot: TypebotFake;

test.beforeAll(async () => {
  typebot = await startTypebotFake();
});
test.afterAll(async () => {
  await typebot?.close();
});

test.setTimeout(180_000);

test("a queue's Typebot talks with a new customer and hands the ticket to the queue", async ({ browser, request }) => {
  const publicId = `pedidos-${run}`;
  typebot.publish(publicId, [
    { bubbles: [{ type: "text", text: "Olá! Qual o número do pedido?" }], input: { type: "text input", saveAs: "pedido" } },
    { bubbles: [{ type: "text", text: "Obrigado! Um atendente continua daqui." }] },
  ]);
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queueName = `Pedidos ${run}`;
  const queue = await admin.createQueue(queueName, "#1e88e5");
  const whatsappId = await admin.createSimulator([queue.id]);

  const page = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto("/Queues");
  await page.getByRole("button", { name: `Editar ${queueName}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("combobox", { name: "Robô" }).click();
  await page.getByRole("option", { name: "Typebot" }).click();
  await dialog.getByLabel("URL do Typebot").fill(typebot.url);
  await dialog.getByLabel("ID público do Typebot").fill(publicId);
  await capture(page, "queue-bot-section");
  await dialog.getByRole("button", { name: "Salvar robô" }).click();
  await expect(page.getByText("Robô salvo")).toBeVisible();

  const agentEmail = `bia-agent-${run}@e2e.local`;
  await admin.createUser(`Caio ${run}`, agentEmail, "secret123", [queue.id]);
  const agentPage = await newSession(browser, agentEmail, "secret123");
  for (const open of [agentPage, page]) {
    await open.goto("/tickets");
    await open.getByRole("tab", { name: /Aguardando/ }).click();
  }

  const customer = `5511${String(Date.now()).slice(-7)}4`;
  const customerName = `Bia ${run}`;
  const received = async () => (await admin.phoneReceived(whatsappId, customer)).map((m) => m.body);
  await admin.customerWrites(whatsappId, { from: customer, name: customerName, body: "oi" });
  await expect.poll(received, { timeout: 30_000 }).toEqual(["Olá! Qual o número do pedido?"]);
  // The bot holds it: the admin's waiting list shows it live, the agent's does not.
  const adminRow = waitingList(page).getByRole("listitem", { name: customerName });
  await expect(adminRow).toBeVisible();
  await expect(adminRow.getByLabel("Robô", { exact: true })).toBeVisible();
  await expect(waitingList(agentPage).getByRole("listitem", { name: customerName })).toHaveCount(0);
  await admin.customerWrites(whatsappId, { from: customer, name: customerName, body: "4512" });
  await expect.poll(async () => (await received()).at(-1), { timeout: 30_000 }).toBe("Obrigado! Um atendente continua daqui.");

  // The end of the flow hands the ticket to the queue's waiting list.
  let ticketId = 0;
  await expect
    .poll(async () => {
      const { tickets } = await admin.get<{ tickets: { id: number; contact: { number: string }; queueId: number | null }[] }>(
        "/tickets?status=pending&showAll=true",
      );
      const found = tickets.find((t) => t.contact.number === customer);
      ticketId = found?.id ?? 0;
      return found?.queueId;
    })
    .toBe(queue.id);

  // Handed over: now the agent's waiting list shows it, without a reload.
  await expect(waitingList(agentPage).getByRole("listitem", { name: customerName })).toBeVisible();
  // …and the admin's row no longer says a bot holds it.
  await expect(adminRow.getByLabel("Robô", { exact: true })).toHaveCount(0);

  // Whoever takes it from the waiting list sees what the customer told the bot, and which
  // messages were the bot's.
  expect(ticketId).toBeGreaterThan(0);
  await page.goto("/tickets");
  await page.getByRole("tab", { name: /Aguardando/ }).click();
  const row = waitingList(page).getByRole("listitem", { name: customerName });
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${ticketId}$`));
  const chat = page.getByRole("log");
  await expect(chat.getByText("4512")).toBeVisible();
  const botMessage = chat.getByRole("article").filter({ hasText: "Olá! Qual o número do pedido?" });
  await expect(botMessage).toContainText("Robô");
  await capture(page, "bot-conversation");
});
