import { expect, type Page } from "@playwright/test";
import { waitingList, workingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, nav, newSession, runId, test } from "./support/app";

// Issue 11 item 2: an admin defines tags; an agent tags a ticket from its header, filters the list by
// tag and moves cards between the board's columns by dragging them.
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
const number = (n: number) => `5521${String(Date.now()).slice(-7)}${n}`;

test.setTimeout(240_000);

async function createTag(page: Page, name: string, swatch: string) {
  await page.getByRole("button", { name: "Adicionar etiqueta" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill(name);
  await dialog.getByRole("button", { name: swatch }).click();
  await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Etiquetas" }).getByText(name)).toBeVisible();
}

test("an admin creates tags; an agent tags a ticket, filters by tag and moves cards on the board", async ({
  browser,
  page,
  request,
}) => {
  const urgent = `Urgente ${run}`;
  const billing = `Cobrança ${run}`;

  await test.step("the admin creates two tags on the Tags screen", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await nav(page).getByRole("link", { name: "Etiquetas" }).click();
    await expect(page).toHaveURL(/\/tags$/);
    await createTag(page, urgent, "#e53935");
    await createTag(page, billing, "#1e88e5");
    // A second tag with the same name, in another case, is refused with the server's message.
    await page.getByRole("button", { name: "Adicionar etiqueta" }).click();
    await page.getByRole("dialog").getByLabel("Nome").fill(urgent.toUpperCase());
    await page.getByRole("dialog").getByRole("button", { name: "Adicionar", exact: true }).click();
    await expect(page.getByText("Já existe uma etiqueta com este nome.")).toBeVisible();
    await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await capture(page, "tags-admin");
  });

  // Setup through the API: a queue, an agent in it, a simulator connection, two customers writing.
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await admin.createQueue(`Etiquetas ${run}`, color());
  await admin.createUser(`Carla ${run}`, `carla-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await admin.createSimulator([queue.id]);
  const first = `Maria ${run}`;
  const second = `João ${run}`;
  await admin.customerWrites(whatsappId, { from: number(1), name: first, body: "Minha fatura veio errada" });
  await admin.customerWrites(whatsappId, { from: number(2), name: second, body: "Quero mudar de plano" });

  const agent = await newSession(browser, `carla-${run}@e2e.local`, "secret123");
  await agent.goto("/tickets");
  await agent.getByRole("tab", { name: /Aguardando/ }).click();
  const ids: Record<string, number> = {};
  for (const name of [second, first]) {
    await waitingList(agent).getByRole("listitem", { name }).getByRole("button", { name: "Aceitar" }).click();
    // The header names this customer: the previous ticket's URL must not be taken for this one.
    await expect(agent.getByRole("heading", { name: new RegExp(name) })).toBeVisible();
    await expect(agent).toHaveURL(/\/tickets\/\d+$/);
    ids[name] = Number(agent.url().split("/").pop());
    await agent.getByRole("tab", { name: /Aguardando/ }).click();
  }

  await test.step("the agent tags the open ticket from its header", async () => {
    await agent.getByRole("tab", { name: /Atendendo/ }).click();
    const header = agent.getByRole("group", { name: `Etiquetas do ticket #${ids[first]}` });
    await header.getByRole("button", { name: "Adicionar etiqueta" }).click();
    await agent.getByRole("menuitemcheckbox", { name: urgent }).click();
    await expect(header.getByRole("button", { name: new RegExp(`Etiqueta ${urgent}`) })).toBeVisible();
    // The tags sit on the header's one line: the contact's name keeps its room, the header its height.
    await expect(agent.getByRole("heading", { name: new RegExp(first) })).toBeVisible();
    const bar = agent.locator("h2", { hasText: first }).locator("xpath=ancestor::div[contains(@class,'MuiPaper-root')][1]");
    expect(await bar.evaluate((element) => element.getBoundingClientRect().height)).toBeLessThanOrEqual(72);
    // The row in the list shows the chip too.
    await expect(workingList(agent).getByRole("listitem", { name: first }).getByText(urgent)).toBeVisible();
    await capture(agent, "tags-ticket-header");
  });

  await test.step("the list filters by tag", async () => {
    await expect(workingList(agent).getByRole("listitem")).toHaveCount(2);
    await agent.getByRole("combobox", { name: "Etiquetas" }).click();
    await agent.getByRole("option", { name: urgent }).click();
    await agent.keyboard.press("Escape");
    await expect(agent.getByRole("listbox")).toHaveCount(0);
    await expect(workingList(agent).getByRole("listitem")).toHaveCount(1);
    await expect(workingList(agent).getByRole("listitem", { name: first })).toBeVisible();
    await capture(agent, "tags-list-filter");
  });

  await test.step("on the board, dragging a card moves the ticket to the target column's tag", async () => {
    await agent.getByRole("link", { name: "Quadro" }).click();
    await expect(agent).toHaveURL(/\/board$/);
    const column = (name: string) => agent.getByRole("region", { name });
    const card = (name: string, ticketId: number) => column(name).locator(`[data-ticket-id="${ticketId}"]`);
    await expect(card("Sem etiqueta", ids[second])).toBeVisible();
    await expect(card(urgent, ids[first])).toBeVisible();
    await capture(agent, "tags-board-before");

    // Untagged → Cobrança: the ticket gets that tag.
    await card("Sem etiqueta", ids[second]).dragTo(column(billing));
    await expect(card(billing, ids[second])).toBeVisible();
    await expect(card("Sem etiqueta", ids[second])).toHaveCount(0);
    // Urgente → Cobrança: Urgente is replaced by Cobrança.
    await card(urgent, ids[first]).dragTo(column(billing));
    await expect(card(billing, ids[first])).toBeVisible();
    await expect(card(urgent, ids[first])).toHaveCount(0);
    await capture(agent, "tags-board-after");

    const stored = await admin.get<{ tags: { name: string }[] }>(`/tickets/${ids[first]}`);
    expect(stored.tags.map((t) => t.name)).toEqual([billing]);
  });

  await test.step("the keyboard alternative: the card's Move to menu", async () => {
    const column = (name: string) => agent.getByRole("region", { name });
    await column(billing)
      .getByRole("button", { name: `Mover ${first} para…` })
      .click();
    await agent.getByRole("menuitem", { name: "Sem etiqueta" }).click();
    await expect(column("Sem etiqueta").locator(`[data-ticket-id="${ids[first]}"]`)).toBeVisible();
  });
});
