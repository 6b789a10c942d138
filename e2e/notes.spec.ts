import { expect, type Page } from "@playwright/test";
import { waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;

test.setTimeout(180_000);

/** Browser notifications, recorded instead of shown (headless Chromium shows none). */
async function recordNotifications(page: Page) {
  await page.context().grantPermissions(["notifications"]);
  await page.addInitScript(() => {
    const shown: { title: string; body?: string }[] = [];
    (window as unknown as { shownNotifications: typeof shown }).shownNotifications = shown;
    class Recorded {
      static permission = "granted";
      static requestPermission = async () => "granted";
      onclick: (() => void) | null = null;
      constructor(title: string, options?: { body?: string }) {
        shown.push({ title, body: options?.body });
      }
      close() {}
    }
    (window as unknown as { Notification: unknown }).Notification = Recorded;
  });
}

test("an agent writes a private note mentioning a colleague; the colleague is notified, the customer never sees it", async ({
  browser,
  request,
}) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await admin.createQueue(`Notas ${run}`, color());
  await admin.createUser(`Ana ${run}`, `ana-notes-${run}@e2e.local`, "secret123", [queue.id]);
  const bruno = await admin.createUser(`Bruno ${run}`, `bruno-notes-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await admin.createSimulator([queue.id]);

  const agentA = await newSession(browser, `ana-notes-${run}@e2e.local`, "secret123");
  const agentB = await newSession(browser, `bruno-notes-${run}@e2e.local`, "secret123");
  await recordNotifications(agentB);
  for (const page of [agentA, agentB]) {
    await page.goto("/tickets");
    await page.getByRole("tab", { name: /Aguardando/ }).click();
  }

  const customer = `5511${String(Date.now()).slice(-7)}7`;
  const customerName = `Paula ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name: customerName, body: "Meu pedido não chegou" });
  const row = waitingList(agentA).getByRole("listitem", { name: customerName });
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(agentA).toHaveURL(/\/tickets\/\d+$/);
  const ticketId = Number(agentA.url().split("/").pop());
  await expect(agentB.getByRole("button", { name: "Notificações: 0 tickets não lidos" })).toBeVisible();

  // Reply is the default; the Private note tab turns the composer amber and says who sees it.
  await expect(agentA.getByRole("tab", { name: "Responder" })).toHaveAttribute("aria-selected", "true");
  await agentA.getByRole("tab", { name: "Nota privada" }).click();
  const note = agentA.getByRole("textbox", { name: /Escreva uma nota/ });
  await expect(agentA.getByText("Nota privada: só a equipe vê, o cliente não recebe")).toBeVisible();
  await note.pressSequentially("Pedido extraviado, @Bru");
  await expect(agentA.getByRole("option", { name: `@Bruno ${run}` })).toBeVisible();
  await capture(agentA, "notes-composer-mention");
  await agentA.getByRole("option", { name: `@Bruno ${run}` }).click();
  await note.pressSequentially("pode reenviar hoje?");
  await note.press("Enter");
  const bubble = agentA.getByTestId("note-bubble");
  await expect(bubble).toContainText(`Pedido extraviado, @Bruno ${run} pode reenviar hoje?`);
  await expect(bubble.getByText("Nota privada")).toBeVisible();
  await expect(bubble).toContainText(`Ana ${run}`);
  await expect(bubble.getByTestId("note-mention")).toHaveText(`@Bruno ${run}`);

  // A real reply through the Reply tab reaches the customer; the note never does.
  await agentA.getByRole("tab", { name: "Responder" }).click();
  const reply = agentA.getByRole("textbox", { name: /Digite uma mensagem/ });
  await reply.fill("Estamos verificando seu pedido.");
  await reply.press("Enter");
  await expect
    .poll(async () => (await admin.phoneReceived(whatsappId, customer)).map((m) => m.body))
    .toEqual([`*Ana ${run}*:\nEstamos verificando seu pedido.`]);
  await capture(agentA, "notes-agent-conversation");

  // Bruno: the bell counts the mention, a browser notification came, and the link opens the ticket at the note.
  const bellB = agentB.getByRole("button", { name: "Notificações: 0 tickets não lidos, 1 menção não lida" });
  await expect(bellB).toBeVisible();
  await expect
    .poll(async () => {
      const shown = await agentB.evaluate(
        () => (window as unknown as { shownNotifications: { title: string; body?: string }[] }).shownNotifications,
      );
      return shown.filter((n) => n.title.includes("mencionou"));
    })
    .toEqual([
      {
        title: `Ana ${run} mencionou você numa nota (${customerName})`,
        body: `Pedido extraviado, @Bruno ${run} pode reenviar hoje?`,
      },
    ]);
  await bellB.click();
  const mention = agentB.getByTestId("mention-item");
  await expect(mention).toContainText(`Ana ${run} mencionou você · ${customerName}`);
  await capture(agentB, "notes-bell-mention");
  await mention.click();
  await expect(agentB).toHaveURL(new RegExp(`/tickets/${ticketId}\\?message=\\d+$`));
  await expect(agentB.getByTestId("note-bubble")).toContainText("pode reenviar hoje?");
  await expect(agentB.getByRole("button", { name: "Notificações: 0 tickets não lidos" })).toBeVisible();
  await capture(agentB, "notes-colleague-sees-note");

  // The customer's phone still holds the one reply, and the server says the note is a note.
  const { messages } = await admin.get<{ messages: { body: string; isNote: boolean; user: { id: number } | null }[] }>(
    `/messages/${ticketId}`,
  );
  expect(messages.filter((m) => m.isNote).map((m) => m.body)).toEqual([`Pedido extraviado, @Bruno ${run} pode reenviar hoje?`]);
  expect((await admin.phoneReceived(whatsappId, customer)).map((m) => m.body)).toEqual([
    `*Ana ${run}*:\nEstamos verificando seu pedido.`,
  ]);
  expect(bruno.id).toBeGreaterThan(0);
});
