import { expect } from "@playwright/test";
import { waitingList, workingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

// Issue 23 §5: an agent takes a waiting customer as theirs on the contacts page; the conversation
// comes to them (they are online and in its queue); "Minha carteira" shows it in the ticket list.
const run = runId();
const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
const number = () => `5531${String(Date.now()).slice(-7)}5`;

test.setTimeout(240_000);

test("an agent makes a customer theirs; the customer's waiting conversation goes to them; my customers shows it", async ({
  browser,
  request,
}) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const queue = await admin.createQueue(`Carteira ${run}`, color());
  const agentName = `Otávio ${run}`;
  await admin.createUser(agentName, `otavio-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await admin.createSimulator([queue.id]);
  const customer = `Lúcia ${run}`;
  await admin.customerWrites(whatsappId, { from: number(), name: customer, body: "Oi, sou cliente antiga" });

  const agent = await newSession(browser, `otavio-${run}@e2e.local`, "secret123");

  await test.step("the conversation waits in the queue (nobody owns the customer, no automatic assignment)", async () => {
    await agent.goto("/tickets");
    await agent.getByRole("tab", { name: /Aguardando/ }).click();
    await expect(waitingList(agent).getByRole("listitem", { name: customer })).toBeVisible({ timeout: 30_000 });
  });

  await test.step("the agent takes the customer as theirs on the contacts page", async () => {
    await agent.goto("/contacts");
    await agent.getByRole("searchbox", { name: "Pesquisar" }).fill(customer);
    await agent.getByRole("combobox", { name: "Responsável", exact: true }).click();
    await agent.getByRole("option", { name: "Sem responsável" }).click();
    const owner = agent.getByRole("combobox", { name: `Responsável por ${customer}` });
    await expect(owner).toBeVisible({ timeout: 30_000 });
    await owner.click();
    await agent.getByRole("option", { name: `${agentName} (eu)` }).click();
    await expect(agent.getByText("Responsável salvo.")).toBeVisible();
    // The "without an owner" list no longer has the customer; "my customers" has.
    await expect(agent.getByRole("row", { name: new RegExp(customer) })).toHaveCount(0);
    await agent.getByRole("combobox", { name: "Responsável", exact: true }).click();
    await agent.getByRole("option", { name: "Minha carteira" }).click();
    await expect(agent.getByRole("row", { name: new RegExp(customer) })).toBeVisible();
    await capture(agent, "contact-owner-contacts");
  });

  await test.step("the waiting conversation comes to its owner; my customers shows it", async () => {
    await agent.goto("/tickets");
    await expect(workingList(agent).getByRole("listitem", { name: customer })).toBeVisible({ timeout: 30_000 });
    await agent.getByRole("button", { name: "Minha carteira" }).click();
    await expect(workingList(agent).getByRole("listitem", { name: customer })).toBeVisible();
    await capture(agent, "contact-owner-my-customers");
  });
});
