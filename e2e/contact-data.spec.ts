import { readFile } from "node:fs/promises";
import { expect } from "@playwright/test";
import { readZip } from "../packages/server/test/zip-reader";
import { waitingList } from "./conversation/pages";
import { PNG_BASE64, ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

const run = runId();
test.setTimeout(180_000);

// Issue 22 §2: an admin downloads everything held about a customer, then erases them; the agent
// who had the conversation on screen sees it go.
test("an admin exports a customer's data as a zip, then erases the customer; the conversation leaves the agent's screen", async ({
  browser,
  request,
}) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  // A queue of its own: the ticket never sits in another journey's lists.
  const color = `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
  const queue = await admin.createQueue(`LGPD ${run}`, color);
  await admin.createUser(`Lia ${run}`, `lia-lgpd-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await admin.createSimulator([queue.id]);
  const customer = `5511${String(Date.now()).slice(-7)}3`;
  const name = `Rosa ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name, body: `Quero meus dados ${run}` });
  await admin.post(`/simulator/${whatsappId}/inbound`, {
    from: customer,
    name,
    media: { mimetype: "image/png", filename: "documento.png", dataBase64: PNG_BASE64 },
  });

  const agent = await newSession(browser, `lia-lgpd-${run}@e2e.local`, "secret123");
  await agent.goto("/tickets");
  await agent.getByRole("tab", { name: /Aguardando/ }).click();
  await expect(waitingList(agent).getByRole("listitem", { name })).toBeVisible();

  const page = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto("/contacts");
  await page.getByRole("searchbox").fill(name);
  const row = page.getByRole("row").filter({ hasText: name });
  await row.getByRole("button", { name: `Dados do cliente ${name} (LGPD)` }).click();
  const dialog = page.getByRole("dialog", { name: `Dados de ${name}` });
  await expect(dialog.getByRole("status", { name: "O que será apagado" })).toContainText("1 conversas, 2 mensagens");
  await expect(dialog.getByText(/1 dessas conversas ainda estão abertas ou aguardando/)).toBeVisible();
  await capture(page, "contact-data-dialog");

  // The export: a zip with data.json and the photo.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Baixar dados" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^contact-\d+-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = readZip(await readFile((await download.path()) as string));
  const data = JSON.parse(files.get("data.json")?.toString() ?? "{}");
  expect(data.contact).toMatchObject({ name, number: customer });
  expect(JSON.stringify(data.tickets)).toContain(`Quero meus dados ${run}`);
  const photo = [...files.keys()].find((file) => file.endsWith("-documento.png"));
  expect(photo).toBeDefined();
  expect(files.get(photo as string)?.equals(Buffer.from(PNG_BASE64, "base64"))).toBe(true);

  // The erasure: refused until the name or number is typed.
  const erase = dialog.getByRole("button", { name: "Apagar definitivamente" });
  await expect(erase).toBeDisabled();
  await dialog.getByRole("textbox", { name: /Digite o nome/ }).fill(customer);
  await erase.click();
  // (The success toast closes itself after 3 s: the outcome is what is checked.)
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);

  // The agent's screen dropped the conversation without a reload.
  await expect(waitingList(agent).getByRole("listitem", { name })).toHaveCount(0);
  await capture(agent, "contact-erased-agent");

  // Searching for what the customer wrote finds nothing any more.
  const { tickets } = await admin.get<{ tickets: unknown[] }>(
    `/tickets?searchParam=${encodeURIComponent(`dados ${run}`)}&showAll=true`,
  );
  expect(tickets).toEqual([]);
});
