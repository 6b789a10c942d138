import { expect, type Page } from "@playwright/test";
import { waitingList, workingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

// Issue 13 items 1, 2 (presence, choosing a queue, one-step transfer) and 6 (agents' load and status):
// two agents and an admin, the simulator as the customer.
test.setTimeout(180_000);

const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;

async function inbox(page: Page, tab: "Aguardando" | "Atendendo") {
  await page.goto("/tickets");
  await page.getByRole("tab", { name: new RegExp(tab) }).click();
}

test("routing: choosing-a-queue group for admins only, presence dots, agents' load, one-step transfer", async ({
  browser,
  request,
}) => {
  const run = runId();
  const api = new ZapdeskApi(request);
  await api.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const sales = await api.createQueue(`Vendas ${run}`, color());
  const support = await api.createQueue(`Suporte ${run}`, color());
  await api.createUser(`Ana ${run}`, `ana-routing-${run}@e2e.local`, "secret123", [sales.id]);
  const bruno = await api.createUser(`Bruno ${run}`, `bruno-routing-${run}@e2e.local`, "secret123", [sales.id]);
  const connection = await api.post<{ id: number }>("/whatsapp", {
    name: `Rotas ${run}`,
    provider: "simulator",
    queueIds: [sales.id, support.id],
    greetingMessage: "Olá! Escolha uma opção:",
    farewellMessage: "",
    isDefault: false,
  });
  await expect
    .poll(async () => (await api.get<{ status: string }>(`/whatsapp/${connection.id}`)).status, { timeout: 15_000 })
    .toBe("CONNECTED");
  const admin = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const ana = await newSession(browser, `ana-routing-${run}@e2e.local`, "secret123");
  const brunoPage = await newSession(browser, `bruno-routing-${run}@e2e.local`, "secret123");
  const customer = { from: `5521${String(Date.now()).slice(-8)}`, name: `Cliente Rotas ${run}` };

  await test.step("a ticket at the greeting menu is in the admin's 'Escolhendo fila' group, not in the agents' lists", async () => {
    for (const page of [admin, ana]) await inbox(page, "Aguardando");
    await api.customerWrites(connection.id, { ...customer, body: "Oi" });
    const header = waitingList(admin).getByRole("button", { name: /Escolhendo fila \(\d+\)/ });
    await expect(header).toBeVisible();
    await expect(header).toHaveAttribute("aria-expanded", "false");
    await expect(waitingList(admin).getByRole("listitem", { name: customer.name })).toHaveCount(0);
    await header.click();
    await expect(waitingList(admin).getByRole("listitem", { name: customer.name })).toContainText("Sem fila");
    await capture(admin, "routing-choosing-group-admin");
    await expect(waitingList(ana).getByRole("listitem", { name: customer.name })).toHaveCount(0);
    await expect(waitingList(ana).getByRole("button", { name: /Escolhendo fila/ })).toHaveCount(0);
    await capture(ana, "routing-choosing-hidden-agent");
  });

  await test.step("the customer picks Vendas: the ticket reaches both Vendas agents", async () => {
    await api.customerWrites(connection.id, { from: customer.from, body: "1" });
    await expect(waitingList(ana).getByRole("listitem", { name: customer.name })).toBeVisible();
  });

  await test.step("Bruno sets himself away; the dashboard shows each agent's status and load", async () => {
    await brunoPage.getByRole("button", { name: "Menu do usuário" }).click();
    await brunoPage.getByRole("menuitem", { name: "Ficar ausente" }).click();
    await ana.goto("/");
    const card = ana.getByRole("group", { name: "Atendentes: status e carga" });
    await expect(card.getByRole("row", { name: new RegExp(`Bruno ${run}`) }).getByRole("img", { name: "Ausente" })).toBeVisible();
    await expect(card.getByRole("row", { name: new RegExp(`Ana ${run}`) }).getByRole("img", { name: "Online" })).toBeVisible();
    await capture(ana, "routing-dashboard-agents");
  });

  await test.step("Ana accepts, then transfers to Bruno in one step from the queue's agents", async () => {
    await inbox(ana, "Aguardando");
    await waitingList(ana).getByRole("listitem", { name: customer.name }).getByRole("button", { name: "Aceitar" }).click();
    await expect(ana).toHaveURL(/\/tickets\/\d+$/);
    await ana.getByRole("button", { name: "Opções do ticket" }).click();
    await ana.getByRole("menuitem", { name: "Transferir" }).click();
    const dialog = ana.getByRole("dialog", { name: "Transferir Ticket" });
    await expect(dialog.getByRole("combobox", { name: "Fila" })).toHaveText(`Vendas ${run}`);
    const agents = dialog.getByRole("list", { name: "Atendentes da fila" });
    await expect(agents.getByTestId(`transfer-agent-${bruno.id}`)).toContainText("Ausente · 0 abertos");
    await expect(agents.getByText(`Ana ${run}`)).toBeVisible();
    await dialog.getByRole("textbox", { name: "Filtrar atendentes" }).fill("brun");
    await expect(agents.getByText(`Ana ${run}`)).toHaveCount(0);
    await agents.getByTestId(`transfer-agent-${bruno.id}`).click();
    await capture(ana, "routing-transfer-dialog");
    await dialog.getByRole("button", { name: "Transferir" }).click();
    await inbox(brunoPage, "Atendendo");
    await expect(workingList(brunoPage).getByRole("listitem", { name: customer.name })).toBeVisible();
    await capture(brunoPage, "routing-transferred-to-bruno");
  });

  await test.step("an admin shows the group to agents in Settings", async () => {
    await admin.goto("/settings");
    const row = admin.getByRole("combobox", { name: "Atendentes veem tickets escolhendo fila (menu de saudação)" });
    await expect(row).toBeVisible();
    await capture(admin, "routing-settings");
  });
});

test("automatic assignment: the admin switches it on in the queue form; a new ticket goes to the online agent, not the away one", async ({
  browser,
  request,
}) => {
  const run = runId();
  const api = new ZapdeskApi(request);
  await api.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await api.createQueue(`Auto ${run}`, color());
  await api.createUser(`Carla ${run}`, `carla-routing-${run}@e2e.local`, "secret123", [queue.id]);
  await api.createUser(`Davi ${run}`, `davi-routing-${run}@e2e.local`, "secret123", [queue.id]);
  // One queue: the customer's ticket lands in it at once.
  const connection = await api.post<{ id: number }>("/whatsapp", {
    name: `Auto ${run}`,
    provider: "simulator",
    queueIds: [queue.id],
    greetingMessage: "",
    farewellMessage: "",
    isDefault: false,
  });
  await expect
    .poll(async () => (await api.get<{ status: string }>(`/whatsapp/${connection.id}`)).status, { timeout: 15_000 })
    .toBe("CONNECTED");
  const admin = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const carla = await newSession(browser, `carla-routing-${run}@e2e.local`, "secret123");
  const davi = await newSession(browser, `davi-routing-${run}@e2e.local`, "secret123");

  await test.step("the admin turns automatic assignment on in the queue form", async () => {
    await admin.goto("/Queues");
    await admin.getByRole("button", { name: `Editar Auto ${run}` }).click();
    const toggle = admin.getByRole("switch", { name: /Atribuição automática/ });
    await expect(toggle).toBeEnabled();
    await toggle.click();
    await expect(toggle).toBeChecked();
    await capture(admin, "routing-queue-auto-assign");
    // Part of the form (issue 20): saved with Save, with the rest of the queue.
    await admin.getByRole("button", { name: "Salvar", exact: true }).click();
    await expect(admin.getByRole("dialog")).toHaveCount(0);
  });

  await test.step("Davi is away; the customer's ticket is assigned to Carla (online) and shows in her Atendendo", async () => {
    await davi.getByRole("button", { name: "Menu do usuário" }).click();
    await davi.getByRole("menuitem", { name: "Ficar ausente" }).click();
    await inbox(carla, "Atendendo");
    const name = `Cliente Auto ${run}`;
    await api.customerWrites(connection.id, { from: `5531${String(Date.now()).slice(-8)}`, name, body: "Oi, preciso de ajuda" });
    await expect(workingList(carla).getByRole("listitem", { name })).toBeVisible({ timeout: 15_000 });
    await capture(carla, "routing-auto-assigned");
    await inbox(davi, "Atendendo");
    await expect(workingList(davi).getByRole("listitem", { name })).toHaveCount(0);
  });
});
