import { expect, type Page } from "@playwright/test";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";

const run = runId();

/** Every button of the table's row naming `text` lies wholly inside the 390 px window. */
async function rowActionsInView(page: Page, path: string, text: string) {
  await page.goto(path);
  const row = page.getByRole("row").filter({ hasText: text }).first();
  await expect(row).toBeVisible();
  // Brought into view vertically only (a long list puts it below the fold); never scrolled sideways.
  await row.evaluate((element) => element.scrollIntoView({ block: "center", inline: "nearest" }));
  await expect(row.getByRole("button").first()).toBeAttached();
  const actions = await row.getByRole("button").all();
  for (const [i, action] of actions.entries()) await expect(action, `${path}: action ${i + 1}`).toBeInViewport({ ratio: 1 });
}

test("at 390 px the tables' row actions and a waiting ticket's Accept are on screen (issue 20 §2.7)", async ({
  page,
  request,
}) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await admin.createQueue(`Fila estreita ${run}`, `#${run.slice(-6).padStart(6, "7")}`);
  const whatsappId = await admin.createSimulator([queue.id]);
  const email = `estreito-${run}@zapdesk.local`;
  await admin.createUser(`Agente estreito ${run}`, email, "secret123", [queue.id]);
  await admin.post("/quickAnswers", { shortcut: `e${run}`, message: "Uma resposta longa o bastante para ocupar a largura" });
  await admin.post("/tags", { name: `Etiqueta ${run}`, color: "#aa3355" });
  const customer = `5511${String(Date.now()).slice(-8)}`;
  const name = `Cliente estreito ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name, body: "Olá, preciso de ajuda" });
  const { tickets } = await admin.get<{ tickets: { id: number; contact: { number: string } }[] }>(
    "/tickets?status=pending&showAll=true",
  );
  const ticketId = tickets.find((t) => t.contact.number === customer)!.id;

  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);

  await rowActionsInView(page, "/users", email);
  await rowActionsInView(page, "/Queues", queue.name);
  await rowActionsInView(page, "/contacts", customer);
  await rowActionsInView(page, "/quickAnswers", `e${run}`);
  await rowActionsInView(page, "/tags", `Etiqueta ${run}`);
  // A connection's session buttons (Disconnect, QR code, pairing) join its edit and delete in the pinned column:
  // all on screen, the other columns scrolling under them.
  const { name: connectionName } = await admin.get<{ name: string }>(`/whatsapp/${whatsappId}`);
  await page.goto("/connections");
  const connection = page
    .getByRole("row")
    .filter({ has: page.getByRole("button", { name: `Editar ${connectionName}`, exact: true }) });
  await expect(connection).toBeVisible();
  await connection.evaluate((element) => element.scrollIntoView({ block: "center", inline: "nearest" }));
  await expect(page.getByRole("columnheader", { name: "Sessão" })).toHaveCount(0);
  for (const name of ["Desconectar", `Editar ${connectionName}`, `Excluir ${connectionName}`]) {
    await expect(connection.getByRole("button", { name, exact: true }), `/connections: ${name}`).toBeInViewport({ ratio: 1 });
  }
  await capture(page, "narrow-390-connections");

  // The waiting ticket: Accept is a button on screen, not an item of the actions menu.
  await page.goto(`/tickets/${ticketId}`);
  const accept = page.getByRole("button", { name: "Aceitar", exact: true });
  await expect(accept).toBeInViewport({ ratio: 1 });
  await capture(page, "narrow-390-accept");
  await accept.click();
  // Open: Resolve stays a button; the rest are in the menu.
  await expect(page.getByRole("button", { name: "Resolver", exact: true })).toBeInViewport({ ratio: 1 });
  await page.getByRole("button", { name: "Ações do ticket" }).click();
  await expect(page.getByRole("menuitem", { name: "Transferir" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Resolver" })).toHaveCount(0);
});
