import { expect } from "@playwright/test";
import { composer, waitingList } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";

test("a message WhatsApp refuses shows red with the reason, and goes out again on request", async ({ page, request }) => {
  const run = runId();
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const whatsappId = await admin.createSimulator([]);
  const customer = `5521${String(Date.now()).slice(-8)}`;
  const customerName = `Recusa ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name: customerName, body: "Vocês entregam hoje?" });

  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto("/tickets");
  await page.getByRole("tab", { name: /Aguardando/ }).click();
  await waitingList(page).getByRole("listitem", { name: customerName }).getByRole("button", { name: "Aceitar" }).click();
  await composer(page).fill("Entregamos sim, até as 18h.");
  await composer(page).press("Enter");

  // WhatsApp refuses it (a server NACK, as for a restricted account): red mark, WhatsApp's reason, a way to retry.
  const text = "Entregamos sim, até as 18h.";
  let wid = "";
  await expect
    .poll(async () => {
      wid = (await admin.phoneReceived(whatsappId, customer)).find((m) => m.body.endsWith(text))?.wid ?? "";
      return wid;
    })
    .not.toBe("");
  await admin.post(`/simulator/${whatsappId}/ack`, { id: wid, ack: -1, error: { code: "463", title: "Conta restrita" } });
  const bubble = page.getByRole("log").getByRole("article").filter({ hasText: text });
  await expect(bubble.getByRole("img", { name: "Não entregue" })).toBeVisible();
  await expect(bubble.getByRole("alert")).toHaveText(/Não entregue: Conta restrita \(código 463\)/);
  await capture(page, "failed-message");

  await bubble.getByRole("button", { name: "Enviar de novo" }).click();
  await expect(bubble.getByRole("alert")).toHaveCount(0);
  await expect(bubble.getByRole("img", { name: "Não entregue" })).toHaveCount(0);
  // The customer's phone gets it a second time, under a new WhatsApp id.
  await expect
    .poll(async () => (await admin.phoneReceived(whatsappId, customer)).filter((m) => m.body.endsWith(text)).map((m) => m.wid))
    .toHaveLength(2);
});
