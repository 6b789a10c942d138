import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page } from "@playwright/test";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, nav, newSession, runId, test } from "./support/app";

const run = runId();
const number = (n: number) => `5511${String(Date.now()).slice(-7)}${n}`;

/** A receiver on this machine: `/ok` answers 200, `/broken` 500 until `brokenFixed`. */
interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}
const hits: Hit[] = [];
let brokenFixed = false;
let receiver: Server;
let port = 0;

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ path: req.url ?? "/", headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
      if (req.url === "/broken" && !brokenFixed) res.writeHead(500).end("receiver is down");
      else res.writeHead(200).end("ok, thanks");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
});
test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const CONTROL = "button|textbox|searchbox|combobox|link|checkbox|switch|radio|menuitem|tab|spinbutton|slider";
const NAMELESS = new RegExp(`^\\s*- (${CONTROL})(:|\\s*$|\\s+\\[)`);
/** Controls without an accessible name (the same rule as accessibility.spec.ts). */
const nameless = async (page: Page, scope = "body") =>
  (await page.locator(scope).first().ariaSnapshot()).split("\n").filter((line) => NAMELESS.test(line));

const signed = (secret: string, hit: Hit) =>
  hit.headers["x-zapdesk-signature"] === `sha256=${createHmac("sha256", secret).update(hit.raw).digest("hex")}`;

/** Registers a webhook through the dialog and returns the secret shown once. */
async function register(page: Page, url: string): Promise<string> {
  await page.getByRole("button", { name: "Adicionar webhook" }).click();
  const dialog = page.getByRole("dialog", { name: "Adicionar webhook" });
  expect(await nameless(page, '[role="dialog"]'), "add dialog").toEqual([]);
  await dialog.getByLabel("URL").fill(url);
  await dialog.getByRole("checkbox", { name: /Mensagem criada/ }).check();
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  const secretDialog = page.getByRole("dialog", { name: "Segredo de assinatura" });
  await expect(secretDialog).toBeVisible();
  const secret = await secretDialog.getByRole("textbox", { name: "Segredo" }).inputValue();
  expect(secret).toMatch(/^whsec_/);
  return secret;
}

test("an admin registers webhooks, sees signed deliveries succeed, and resends a failed one", async ({ browser, request }) => {
  const api = new ZapdeskApi(request);
  await api.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const whatsappId = await api.createSimulator([]);
  const page = await newSession(browser, ADMIN_EMAIL, ADMIN_PASSWORD);

  // A local receiver is a private address: refused until the admin allows private targets.
  await page.goto("/Settings");
  await page.getByRole("combobox", { name: "Webhooks podem chamar endereços privados e locais" }).click();
  await page.getByRole("option", { name: "Ativado", exact: true }).click();
  await expect(page.getByRole("combobox", { name: "Webhooks podem chamar endereços privados e locais" })).toContainText(
    "Ativado",
  );
  await capture(page, "webhooks-setting");

  await nav(page).getByRole("link", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
  expect(await nameless(page), "/webhooks").toEqual([]);
  const okUrl = `http://127.0.0.1:${port}/ok`;
  const secret = await register(page, okUrl);
  await capture(page, "webhooks-secret-once");
  await page.getByRole("button", { name: "Já copiei" }).click();
  const row = page.getByRole("row").filter({ hasText: okUrl });
  await expect(row).toContainText("message.created");
  await expect(row).toContainText(secret.slice(-4));
  // The secret is never shown again.
  await expect(page.getByText(secret)).toHaveCount(0);

  // The simulated customer writes: the receiver gets a signed message.created.
  const customer = number(1);
  await api.customerWrites(whatsappId, { from: customer, name: `Webhook ${run}`, body: `Oi webhook ${run}` });
  await expect.poll(() => hits.filter((h) => h.path === "/ok").length, { timeout: 15_000 }).toBeGreaterThan(0);
  const hit = hits.find((h) => h.path === "/ok") as Hit;
  expect(signed(secret, hit)).toBe(true);
  expect(JSON.parse(hit.raw)).toMatchObject({ event: "message.created", data: { message: { body: `Oi webhook ${run}` } } });

  await row.getByRole("button", { name: `Entregas de ${okUrl}` }).click();
  const deliveries = page.getByRole("dialog", { name: /Entregas/ });
  await expect(deliveries.getByRole("row").nth(1)).toContainText("Entregue");
  await expect(deliveries.getByRole("row").nth(1)).toContainText("200");
  await expect(deliveries.getByRole("row").nth(1)).toContainText("ok, thanks");
  expect(await nameless(page, '[role="dialog"]'), "deliveries dialog").toEqual([]);
  await capture(page, "webhooks-delivered");
  await deliveries.getByRole("button", { name: "Fechar" }).click();
  await expect(row).toContainText("Entregue");
  await capture(page, "webhooks-list");

  // A broken receiver: the delivery waits for its next try with the 500 and the answer logged.
  const brokenUrl = `http://127.0.0.1:${port}/broken`;
  await register(page, brokenUrl);
  await page.getByRole("button", { name: "Já copiei" }).click();
  await api.customerWrites(whatsappId, { from: customer, body: `Segunda mensagem ${run}` });
  const brokenRow = page.getByRole("row").filter({ hasText: brokenUrl });
  await brokenRow.getByRole("button", { name: `Entregas de ${brokenUrl}` }).click();
  const brokenDeliveries = page.getByRole("dialog", { name: /Entregas/ });
  const first = brokenDeliveries.getByRole("row").nth(1);
  await expect(first).toContainText("Pendente", { timeout: 15_000 });
  await expect(first).toContainText("500");
  await expect(first).toContainText("receiver is down");
  await expect(first).toContainText("próxima tentativa");
  await capture(page, "webhooks-retrying");
  await brokenDeliveries.getByRole("button", { name: "Fechar" }).click();

  // The admin pauses the webhook: its queued delivery is failed, ready to be resent.
  await brokenRow.getByRole("button", { name: `Editar ${brokenUrl}` }).click();
  const edit = page.getByRole("dialog", { name: "Editar webhook" });
  await edit.getByLabel("Ativo").uncheck();
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(brokenRow).toContainText("Não");
  await brokenRow.getByRole("button", { name: `Entregas de ${brokenUrl}` }).click();
  await expect(first).toContainText("Falhou");
  await capture(page, "webhooks-failed");
  await brokenDeliveries.getByRole("button", { name: "Fechar" }).click();

  // The receiver is fixed and the webhook back on: Resend delivers it.
  brokenFixed = true;
  await brokenRow.getByRole("button", { name: `Editar ${brokenUrl}` }).click();
  await edit.getByLabel("Ativo").check();
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(brokenRow).toContainText("Sim");
  await brokenRow.getByRole("button", { name: `Entregas de ${brokenUrl}` }).click();
  await first.getByRole("button", { name: "Reenviar" }).click();
  await expect(first).toContainText("Entregue", { timeout: 15_000 });
  await expect(first).toContainText("200");
  await expect(first.getByRole("button", { name: "Reenviar" })).toHaveCount(0);
  await capture(page, "webhooks-resent");
  const resent = hits.filter((h) => h.path === "/broken");
  expect(JSON.parse(resent[resent.length - 1].raw)).toMatchObject({
    event: "message.created",
    data: { message: { body: `Segunda mensagem ${run}` } },
  });
  await page.context().close();

  // Leave the shared server as other journeys expect it: no webhooks of ours, private targets refused.
  const login = await request.post("/api/auth/login", { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  const headers = { Authorization: `Bearer ${(await login.json()).token}` };
  const { webhooks } = await api.get<{ webhooks: { id: number; url: string }[] }>("/webhooks");
  for (const webhook of webhooks.filter((w) => w.url.startsWith(`http://127.0.0.1:${port}/`)))
    expect((await request.delete(`/api/webhooks/${webhook.id}`, { headers })).status()).toBe(200);
  const reset = await request.put("/api/settings/webhookAllowPrivate", { data: { value: "disabled" }, headers });
  expect(reset.status()).toBe(200);
});
