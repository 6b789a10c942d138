import { expect } from "@playwright/test";
import { waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;

test.setTimeout(180_000);

/** The browser's local `datetime-local` value `seconds` from now (with seconds). */
const localIn = (seconds: number) =>
  `(() => { const d = new Date(Date.now() + ${seconds} * 1000); const p = (n) => String(n).padStart(2, "0");
     return d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate()) + "T" + p(d.getHours()) + ":" + p(d.getMinutes()) + ":" + p(d.getSeconds()); })()`;

test("an agent schedules a message: shown as scheduled, delivered at its time, listed as sent", async ({ browser, request }) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await admin.createQueue(`Agenda ${run}`, color());
  await admin.createUser(`Carla ${run}`, `carla-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await admin.createSimulator([queue.id]);

  const agent = await newSession(browser, `carla-${run}@e2e.local`, "secret123");
  const customer = `5511${String(Date.now()).slice(-7)}7`;
  const customerName = `Joana ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name: customerName, body: "Pode me lembrar amanhã?" });
  await agent.goto("/tickets");
  await agent.getByRole("tab", { name: /Aguardando/ }).click();
  const row = waitingList(agent).getByRole("listitem", { name: customerName });
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(agent).toHaveURL(/\/tickets\/\d+$/);

  // One an hour ahead (the dialog's default time), which stays scheduled.
  const later = `Mensagem para daqui a uma hora ${run}`;
  await agent.getByRole("button", { name: "Agendar mensagem" }).click();
  const dialog = agent.getByRole("dialog", { name: "Agendar mensagem" });
  await dialog.getByLabel("Mensagem").fill(later);
  await dialog.getByRole("button", { name: "Agendar", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(agent.getByTestId("scheduled-bubble").filter({ hasText: later })).toBeVisible();

  // Then, from the composer's clock, one a little ahead: far enough that a loaded machine still sees
  // it scheduled before it is due (it was 8 s, scheduled first: CI once saw it delivered before the
  // second one was saved).
  const body = `Lembrete agendado ${run}`;
  await agent.getByRole("button", { name: "Agendar mensagem" }).click();
  await dialog.getByLabel("Data e hora do envio").fill(await agent.evaluate(localIn(25)));
  await dialog.getByLabel("Mensagem").fill(body);
  await capture(agent, "schedules-dialog");
  await dialog.getByRole("button", { name: "Agendar", exact: true }).click();
  await expect(dialog).toBeHidden();

  // Shown in the conversation as scheduled, with edit and cancel, beside the other.
  const bubble = agent.getByTestId("scheduled-bubble").filter({ hasText: body });
  await expect(bubble).toBeVisible();
  await expect(bubble).toContainText("Agendada para");
  await expect(bubble.getByRole("button", { name: "Editar agendamento" })).toBeVisible();
  await expect(agent.getByTestId("scheduled-bubble")).toHaveCount(2);
  await capture(agent, "schedules-pending-bubble");

  // At its time the outbox delivers it to the customer's phone, once; the bubble becomes the message.
  await expect
    .poll(async () => (await admin.phoneReceived(whatsappId, customer)).map((m) => m.body), { timeout: 60_000 })
    .toEqual([body]);
  await expect(agent.getByRole("log").getByText(body)).toBeVisible();
  await expect(agent.getByTestId("scheduled-bubble")).toHaveCount(1);
  await capture(agent, "schedules-delivered");

  // The Agendamento screen lists both: the first sent, the second scheduled (and cancelled from there).
  await agent.goto("/ZDGAgendamento");
  const sentRow = agent.getByTestId("schedule-row").filter({ hasText: body });
  await expect(sentRow.getByTestId("schedule-status")).toHaveText("Enviada");
  await expect(sentRow).toContainText(customerName);
  await expect(sentRow).toContainText(`Carla ${run}`);
  const laterRow = agent.getByTestId("schedule-row").filter({ hasText: later });
  await expect(laterRow.getByTestId("schedule-status")).toHaveText("Agendada");
  await capture(agent, "schedules-list");
  await laterRow.getByRole("button", { name: "Cancelar agendamento" }).click();
  await agent
    .getByRole("dialog")
    .getByRole("button", { name: /ok|confirmar|sim/i })
    .click();
  await expect(laterRow.getByTestId("schedule-status")).toHaveText("Cancelada");
  await capture(agent, "schedules-list-cancelled");
  expect((await admin.phoneReceived(whatsappId, customer)).map((m) => m.body)).toEqual([body]);
});
