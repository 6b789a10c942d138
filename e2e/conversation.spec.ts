import { expect } from "@playwright/test";
import { bell, composer, pasteFile, waitingList, workingList } from "./conversation/pages";
import { PNG_BASE64, ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

const run = runId();
// Queue colours are unique: each run picks its own.
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
const number = (n: number) => `5511${String(Date.now()).slice(-7)}${n}`;

test.describe.configure({ mode: "serial" });
test.setTimeout(240_000);

test("two agents and a simulated customer hold a conversation through the UI", async ({ browser, request }) => {
  // Setup through the API: queues, agents A (queue 1) and B (queue 2), a quick answer, a simulator connection.
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const sales = await admin.createQueue(`Sales ${run}`, color());
  const support = await admin.createQueue(`Support ${run}`, color());
  await admin.createUser(`Ana ${run}`, `ana-${run}@e2e.local`, "secret123", [sales.id]);
  await admin.createUser(`Bruno ${run}`, `bruno-${run}@e2e.local`, "secret123", [support.id]);
  const shortcut = `bd${run}`.slice(0, 15);
  await admin.post("/quickAnswers", { shortcut, message: "Bom dia! Como posso ajudar?" });
  const whatsappId = await admin.createSimulator([sales.id]);

  const agentA = await newSession(browser, `ana-${run}@e2e.local`, "secret123");
  const agentB = await newSession(browser, `bruno-${run}@e2e.local`, "secret123");
  for (const page of [agentA, agentB]) {
    await page.goto("/tickets");
    await page.getByRole("tab", { name: /Aguardando/ }).click();
    await expect(waitingList(page).getByText("Nada aqui!")).toBeVisible();
  }

  // A customer writes: the ticket appears live in A's Waiting list, never in B's.
  const customer = number(1);
  const customerName = `Maria ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name: customerName, body: "Olá, preciso de ajuda" });
  const row = waitingList(agentA).getByRole("listitem", { name: customerName });
  await expect(row).toBeVisible();
  await expect(row.getByText("Olá, preciso de ajuda")).toBeVisible();
  await expect(agentA.getByRole("tab", { name: /Aguardando/ })).toContainText("1");
  await expect(bell(agentA, 1)).toBeVisible();
  await capture(agentA, "tickets-waiting");
  await expect(waitingList(agentB).getByRole("listitem")).toHaveCount(0);
  await expect(waitingList(agentB).getByText("Nada aqui!")).toBeVisible();

  // A accepts from the row and lands in the conversation.
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(agentA).toHaveURL(/\/tickets\/\d+$/);
  const ticketId = Number(agentA.url().split("/").pop());
  await expect(agentA.getByRole("heading", { name: new RegExp(customerName) })).toContainText(`#${ticketId}`);
  await expect(agentA.getByText(`Atribuído à: Ana ${run}`)).toBeVisible();
  await agentA.getByRole("tab", { name: /Atendendo/ }).click();
  await expect(workingList(agentA).getByRole("button", { name: customerName })).toBeVisible();
  await expect(bell(agentA, 0)).toBeVisible();

  // A quick answer through '/', then a signed message (Sign is on by default).
  await composer(agentA).fill(`/${shortcut.slice(0, 6)}`);
  await agentA.getByRole("option", { name: `${shortcut} - Bom dia! Como posso ajudar?` }).click();
  await expect(composer(agentA)).toHaveValue("Bom dia! Como posso ajudar?");
  await composer(agentA).press("Enter");
  await expect(composer(agentA)).toHaveValue("");
  await composer(agentA).fill("Vou verificar seu *pedido* agora.");
  await composer(agentA).press("Enter");
  const log = agentA.getByRole("log");
  await expect(log.locator("strong", { hasText: "pedido" })).toBeVisible();

  // An image by paste: a preview first, then sent.
  await pasteFile(agentA, PNG_BASE64, "print.png", "image/png");
  await expect(agentA.getByRole("group", { name: "Anexos" }).getByRole("img", { name: "print.png" })).toBeVisible();
  await agentA.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(agentA.getByRole("group", { name: "Anexos" })).toHaveCount(0);

  // The customer's phone received all three, signed with A's name.
  await expect
    .poll(async () => (await admin.phoneReceived(whatsappId, customer)).map((m) => m.media?.mimetype ?? m.body))
    .toEqual([`*Ana ${run}*:\nBom dia! Como posso ajudar?`, `*Ana ${run}*:\nVou verificar seu *pedido* agora.`, "image/png"]);
  const received = await admin.phoneReceived(whatsappId, customer);

  // Acks from the phone turn the ticks blue.
  const signedBubble = log.getByRole("article").filter({ hasText: "Vou verificar seu" });
  await expect(signedBubble.locator("[data-ack]")).not.toHaveAttribute("data-ack", "3");
  await admin.ack(whatsappId, received[1].wid, 3);
  await expect(signedBubble.locator("[data-ack]")).toHaveAttribute("data-ack", "3");
  await expect(signedBubble.getByRole("img", { name: "Lida" })).toBeVisible();

  // A voice note from Chromium's fake microphone arrives as audio.
  await agentA.getByRole("button", { name: "Gravar áudio" }).click();
  await expect(agentA.getByLabel("Gravando")).toHaveText(/00:0\d/);
  await agentA.waitForTimeout(2500);
  await agentA.getByRole("button", { name: "Enviar áudio" }).click();
  await expect
    .poll(async () => (await admin.phoneReceived(whatsappId, customer)).at(-1)?.media?.mimetype ?? "")
    .toMatch(/^audio\//);
  await expect(log.locator("audio")).toHaveCount(1);

  // The message menu deletes one's own message, which stays in the history as deleted.
  const quickBubble = log.getByRole("article").filter({ hasText: "Bom dia! Como posso ajudar?" });
  await quickBubble.getByRole("button", { name: "Opções da mensagem" }).click();
  await agentA.getByRole("menuitem", { name: "Deletar" }).click();
  await expect(quickBubble).toHaveCount(0);
  await expect(log.getByText("Esta mensagem foi apagada")).toHaveCount(1);

  // Notifications: a message on the open ticket counts nothing; a new unassigned ticket in A's queue counts one.
  await admin.customerWrites(whatsappId, { from: customer, body: "Obrigada!" });
  await expect(log.getByText("Obrigada!")).toBeVisible();
  const other = number(2);
  await admin.customerWrites(whatsappId, { from: other, name: `João ${run}`, body: "Alguém aí?" });
  await expect(bell(agentA, 1)).toBeVisible();
  await expect(bell(agentB, 0)).toBeVisible();
  // Still nothing for B, live or freshly loaded.
  await agentB.reload();
  await agentB.getByRole("tab", { name: /Aguardando/ }).click();
  await expect(waitingList(agentB).getByText("Nada aqui!")).toBeVisible();
  await expect(bell(agentB, 0)).toBeVisible();

  await capture(agentA, "conversation");

  // CSV export of the conversation.
  const download = agentA.waitForEvent("download");
  // Issue 13: the export is in the ticket's menu.
  await agentA.getByRole("button", { name: "Opções do ticket" }).click();
  await agentA.getByRole("menuitem", { name: "Exportar conversa (CSV)" }).click();
  const csv = await (await download).createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
  });
  const lines = csv.split("\r\n");
  expect(lines[0]).toBe("body,id,fromMe,quoted,isDel,mediaUrl,type,created");
  expect(csv).toContain('"Olá, preciso de ajuda"');
  expect(csv).toContain(`"*Ana ${run}*:\nVou verificar seu *pedido* agora."`);
  expect(lines.some((l) => l.includes('"image"') && l.includes("/api/messages/"))).toBe(true);
  expect(lines.some((l) => l.includes('"audio"'))).toBe(true);

  // Resolve: on to the next conversation (issue 13), or the list; the Resolved tab shows the 'resolvido' badge.
  await agentA.getByRole("button", { name: "Resolver" }).click();
  await expect(agentA).not.toHaveURL(new RegExp(`/tickets/${ticketId}$`));
  await agentA.getByRole("tab", { name: "Resolvidos" }).click();
  const resolvedRow = agentA.getByRole("list", { name: "Resolvidos" }).getByRole("button", { name: customerName });
  await expect(resolvedRow.getByText("resolvido")).toBeVisible();

  // Reopen from the ticket view.
  await resolvedRow.click();
  await expect(composer(agentA)).toHaveCount(0);
  await expect(agentA.getByText("Reabra ou aceite esse ticket para enviar uma mensagem.")).toBeVisible();
  await agentA.getByRole("button", { name: "Reabrir" }).click();
  await expect(agentA).toHaveURL(new RegExp(`/tickets/${ticketId}$`));
  await expect(composer(agentA)).toBeVisible();

  // Transfer to B's queue: it leaves A and shows up, waiting, for B.
  await agentA.getByRole("button", { name: "Opções do ticket" }).click();
  await agentA.getByRole("menuitem", { name: "Transferir" }).click();
  const dialog = agentA.getByRole("dialog", { name: "Transferir Ticket" });
  await dialog.getByRole("combobox", { name: "Fila" }).click();
  await agentA.getByRole("option", { name: support.name }).click();
  await dialog.getByRole("button", { name: "Transferir" }).click();
  await expect(agentA).not.toHaveURL(new RegExp(`/tickets/${ticketId}$`));
  await expect(waitingList(agentB).getByRole("listitem", { name: customerName })).toBeVisible();
  const moved = await admin.get<{ status: string; queueId: number; userId: number | null }>(`/tickets/${ticketId}`);
  expect(moved).toMatchObject({ status: "pending", queueId: support.id, userId: null });

  // Older messages: João writes 24 more; only the newest 20 load, the rest come when scrolled to the top, without a jump.
  // (After the transfer the agent may have landed on João's waiting ticket: leave it, so its page loads afresh.)
  await agentA.goto("/tickets");
  for (let i = 1; i <= 24; i++) await admin.customerWrites(whatsappId, { from: other, body: `msg ${i}` });
  await agentA.getByRole("tab", { name: "Inbox" }).click();
  await agentA.getByRole("tab", { name: /Aguardando/ }).click();
  await waitingList(agentA)
    .getByRole("listitem", { name: `João ${run}` })
    .getByRole("button", { name: "Aceitar" })
    .click();
  await expect(log.getByText("msg 24", { exact: true })).toBeVisible();
  await expect(log.getByText("Alguém aí?")).toHaveCount(0);
  await log.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect(log.getByText("Alguém aí?")).toHaveCount(1);
  await expect(log.getByText("msg 5", { exact: true })).toBeInViewport();
  await expect(log.getByText("Alguém aí?")).not.toBeInViewport();

  // The contact drawer: number as a tel link.
  await agentA.getByRole("button", { name: `Dados do contato João ${run}` }).click();
  await expect(agentA.getByRole("link", { name: other })).toHaveAttribute("href", `tel:${other}`);
  // Below 1600 px the drawer lies over the conversation: Escape closes it.
  await agentA.keyboard.press("Escape");

  // New ticket for a contact that does not exist yet: the typed name becomes the contact, the ticket opens.
  await agentA.getByRole("button", { name: "Novo" }).click();
  const newTicket = agentA.getByRole("dialog", { name: "Criar Ticket" });
  await newTicket.getByRole("combobox").fill(`Carla ${run}`);
  await agentA.getByRole("option", { name: `Adicionar contato "Carla ${run}"` }).click();
  await expect(newTicket.getByLabel("Nome")).toHaveValue(`Carla ${run}`);
  const carla = number(3);
  await newTicket.getByLabel("Número do Whatsapp").fill(carla);
  await newTicket.getByRole("button", { name: "Salvar" }).click();
  await expect(agentA.getByRole("heading", { name: new RegExp(`Carla ${run}`) })).toBeVisible();
  await expect(composer(agentA)).toBeVisible();

  // Protocolo: the server sends the notice and closes the ticket; the number is shown, then on to the next conversation.
  await agentA.getByRole("button", { name: "Protocolo" }).click();
  await expect(agentA.getByRole("alertdialog")).toContainText(/Protocolo de atendimento enviado: nº \d+/);
  await agentA.getByRole("button", { name: "OK" }).click();
  await expect(agentA).toHaveURL(/\/tickets(\/\d+)?$/);
  await expect(agentA.getByRole("heading", { name: new RegExp(`Carla ${run}`) })).toHaveCount(0);
  await expect
    .poll(async () => (await admin.phoneReceived(whatsappId, carla)).map((m) => m.body).join())
    .toMatch(/^Seu protocolo de atendimento é: nº/);

  // The dashboard shows the server's aggregation for A's queues: the two tickets A now works on are counted.
  const asAgentA = new ZapdeskApi(request);
  await asAgentA.login(`ana-${run}@e2e.local`, "secret123");
  const timeZone = await agentA.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const stats = await asAgentA.get<{ counts: { open: number; pending: number; closed: number } }>(
    `/dashboard?tz=${encodeURIComponent(timeZone)}`,
  );
  expect(stats.counts.open).toBeGreaterThanOrEqual(1);
  await agentA.goto("/");
  for (const [label, value] of [
    ["Em Atendimento", stats.counts.open],
    ["Aguardando", stats.counts.pending],
    ["Finalizado", stats.counts.closed],
  ] as const) {
    await expect(agentA.getByRole("group", { name: label })).toContainText(String(value));
  }
  await expect(agentA.getByRole("figure")).toHaveCount(4);
  await capture(agentA, "dashboard");
});
