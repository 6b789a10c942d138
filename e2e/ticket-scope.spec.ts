import { type APIRequestContext, type Browser, expect, type Locator, type Page } from "@playwright/test";
import { bell, composer, waitingList, workingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, newSession, runId, test } from "./support/app";

// Issue 12 items 14, 16 and 21: who sees which ticket, live, in two agents' browsers.
const queueOf = (row: Locator) => row.getByTestId("queue-strip");
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;

test.setTimeout(180_000);

/** What an admin does elsewhere (another screen, an integration): a plain API call. */
async function adminPut(request: APIRequestContext, path: string, data: unknown) {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  const { token } = (await login.json()) as { token: string };
  const res = await request.put(path, { data, headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
}

async function inbox(page: Page, tab: "Aguardando" | "Atendendo") {
  await page.goto("/tickets");
  await page.getByRole("tab", { name: new RegExp(tab) }).click();
}

/** Queues Vendas and Suporte, Ana in Vendas, Bruno in Suporte, signed in; a connection with the greeting menu. */
async function setup(browser: Browser, request: APIRequestContext) {
  const run = runId();
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const sales = await admin.createQueue(`Vendas ${run}`, color());
  const support = await admin.createQueue(`Suporte ${run}`, color());
  const ana = await admin.createUser(`Ana ${run}`, `ana-scope-${run}@e2e.local`, "secret123", [sales.id]);
  await admin.createUser(`Bruno ${run}`, `bruno-scope-${run}@e2e.local`, "secret123", [support.id]);
  // Two queues: the customer gets the greeting menu and picks one.
  const connection = await admin.post<{ id: number }>("/whatsapp", {
    name: `Menu ${run}`,
    provider: "simulator",
    queueIds: [sales.id, support.id],
    greetingMessage: "Olá! Escolha uma opção:",
    farewellMessage: "",
    isDefault: false,
  });
  await expect
    .poll(async () => (await admin.get<{ status: string }>(`/whatsapp/${connection.id}`)).status, { timeout: 15_000 })
    .toBe("CONNECTED");
  const agentA = await newSession(browser, `ana-scope-${run}@e2e.local`, "secret123");
  const agentB = await newSession(browser, `bruno-scope-${run}@e2e.local`, "secret123");
  const customer = { from: `5511${String(Date.now()).slice(-8)}`, name: `Cliente ${run}` };
  /** The customer writes and picks a queue in the menu (1 Vendas, 2 Suporte). */
  const customerPicks = async (option: "1" | "2") => {
    await admin.customerWrites(connection.id, { ...customer, body: "Oi" });
    await admin.customerWrites(connection.id, { from: customer.from, body: option });
  };
  return { run, admin, sales, support, ana, agentA, agentB, customer, connection, customerPicks };
}

test("a ticket leaving an agent's queue leaves their list and bell live: the menu pick, an admin's queue change", async ({
  browser,
  request,
}) => {
  const { run, admin, sales, agentA, agentB, customer, connection } = await setup(browser, request);
  const { name } = customer;
  // Issue 13: agents see tickets still at the greeting menu only when the admin allows it.
  await adminPut(request, "/api/settings/showChoosingQueue", { value: "enabled" });
  try {
    for (const page of [agentA, agentB]) await inbox(page, "Aguardando");

    await test.step("the customer's pick in the greeting menu takes the 'Sem fila' row off the other queue's agent", async () => {
      await admin.customerWrites(connection.id, { ...customer, body: "Oi" });
      for (const page of [agentA, agentB]) {
        // The ticket waits apart, in the collapsed "Escolhendo fila" group.
        await page.getByRole("button", { name: /Escolhendo fila \(\d+\)/ }).click();
        await expect(waitingList(page).getByRole("listitem", { name })).toContainText("Sem fila");
        await expect(bell(page, 1)).toBeVisible();
      }
      await admin.customerWrites(connection.id, { from: customer.from, body: "2" });
      await expect(queueOf(waitingList(agentB).getByRole("listitem", { name }))).toHaveAccessibleName(`Suporte ${run}`);
      await expect(waitingList(agentA).getByRole("listitem", { name })).toHaveCount(0);
      await expect(bell(agentA, 0)).toBeVisible();
      await expect(bell(agentB, 1)).toBeVisible();
    });

    await test.step("an admin moves it to Vendas: it leaves Bruno's list and bell and reaches Ana's", async () => {
      const { tickets } = await admin.get<{ tickets: { id: number; contact: { number: string } }[] }>(
        "/tickets?showAll=true&status=pending",
      );
      const ticket = tickets.find((x) => x.contact.number === customer.from)!;
      await adminPut(request, `/api/tickets/${ticket.id}`, { status: "pending", userId: null, queueId: sales.id });
      await expect(waitingList(agentB).getByRole("listitem", { name })).toHaveCount(0);
      await expect(bell(agentB, 0)).toBeVisible();
      await expect(queueOf(waitingList(agentA).getByRole("listitem", { name }))).toHaveAccessibleName(`Vendas ${run}`);
    });
  } finally {
    await adminPut(request, "/api/settings/showChoosingQueue", { value: "disabled" });
  }
});

test("a ticket transferred to one agent alone shows in their inbox with their queue filter on; the other's chat closes", async ({
  browser,
  request,
}) => {
  const { run, sales, ana, agentA, agentB, customer, customerPicks } = await setup(browser, request);
  const { name } = customer;
  await inbox(agentB, "Aguardando");
  await customerPicks("2");
  const row = waitingList(agentB).getByRole("listitem", { name });
  await expect(queueOf(row)).toHaveAccessibleName(`Suporte ${run}`);
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(agentB).toHaveURL(/\/tickets\/\d+$/);
  const ticketId = Number(agentB.url().split("/").pop());
  await expect(composer(agentB)).toBeVisible();
  await inbox(agentA, "Atendendo");

  await test.step("transferred to Ana alone, in Suporte (not her queue): it shows in her inbox, live and after a reload", async () => {
    await adminPut(request, `/api/tickets/${ticketId}`, { userId: ana.id });
    await expect(queueOf(workingList(agentA).getByRole("listitem", { name }))).toHaveAccessibleName(`Suporte ${run}`);
    await agentA.reload();
    await agentA.getByRole("tab", { name: /Atendendo/ }).click();
    await expect(workingList(agentA).getByRole("listitem", { name })).toBeVisible();
  });

  await test.step("Bruno's open chat says it went to Ana and its composer closes", async () => {
    await expect(agentB.getByRole("status")).toContainText(`Este ticket foi transferido para Ana ${run}`);
    await expect(composer(agentB)).toHaveCount(0);
    await expect(workingList(agentB).getByRole("listitem", { name })).toHaveCount(0);
  });

  await test.step("moved out of Bruno's reach: his chat stays and says it moved, nothing says deleted", async () => {
    await adminPut(request, `/api/tickets/${ticketId}`, { status: "pending", userId: null, queueId: sales.id });
    await agentA.getByRole("tab", { name: /Aguardando/ }).click();
    await expect(queueOf(waitingList(agentA).getByRole("listitem", { name }))).toHaveAccessibleName(`Vendas ${run}`);
    await expect(agentB).toHaveURL(new RegExp(`/tickets/${ticketId}$`));
    await expect(agentB.getByRole("status")).toContainText("Este ticket foi transferido");
    await expect(composer(agentB)).toHaveCount(0);
    await expect(agentB.getByText("Ticket deletado com sucesso.")).toHaveCount(0);
  });
});
