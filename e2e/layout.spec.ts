import { expect, type Locator, type Page } from "@playwright/test";
import { composer } from "./conversation/pages";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";

const run = runId();

/** A short silent WAV: real audio bytes, so the server stores it as an audio message. */
function silentWav(samples = 800): string {
  const data = Buffer.alloc(44 + samples);
  data.write("RIFF", 0);
  data.writeUInt32LE(36 + samples, 4);
  data.write("WAVEfmt ", 8);
  data.writeUInt32LE(16, 16);
  data.writeUInt16LE(1, 20); // PCM
  data.writeUInt16LE(1, 22); // mono
  data.writeUInt32LE(8000, 24);
  data.writeUInt32LE(8000, 28);
  data.writeUInt16LE(1, 32);
  data.writeUInt16LE(8, 34);
  data.write("data", 36);
  data.writeUInt32LE(samples, 40);
  data.fill(128, 44);
  return data.toString("base64");
}

const width = (locator: Locator) => locator.evaluate((element) => element.getBoundingClientRect().width);
/** The composer's text box, found by its placeholder: an open modal drawer hides it from role queries. */
const textBox = (page: Page) => page.getByPlaceholder(/Digite uma mensagem/);

/** Nothing on the page is wider than the window. */
async function expectNoHorizontalOverflow(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

test("the open ticket fits a laptop with the contact drawer open, and a phone", async ({ page, request }) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const whatsappId = await admin.createSimulator([]);
  const customer = `5511${String(Date.now()).slice(-8)}`;
  const name = `Layout ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name, body: "Olá, segue um áudio" });
  await admin.post(`/simulator/${whatsappId}/inbound`, {
    from: customer,
    media: { mimetype: "audio/wav", filename: "nota.wav", dataBase64: silentWav() },
  });
  const { tickets } = await admin.get<{ tickets: { id: number; contact: { number: string } }[] }>(
    "/tickets?status=pending&showAll=true",
  );
  const ticketId = tickets.find((t) => t.contact.number === customer)!.id;

  await page.setViewportSize({ width: 1366, height: 768 });
  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto(`/tickets/${ticketId}`);
  await page.getByRole("button", { name: "Aceitar" }).click();
  await expect(composer(page)).toBeVisible();

  // 1366 px: the contact drawer opens over the conversation; header and composer keep their room.
  await page.getByRole("button", { name: `Dados do contato ${name}` }).click();
  const drawer = page.getByLabel("Dados do contato", { exact: true });
  await expect(drawer).toBeVisible();
  expect(await width(textBox(page))).toBeGreaterThanOrEqual(400);
  // The header keeps its actions on one line.
  const header = page.locator("h2", { hasText: name }).locator("xpath=ancestor::div[contains(@class,'MuiPaper-root')][1]");
  expect(await header.evaluate((element) => element.getBoundingClientRect().height)).toBeLessThanOrEqual(72);
  // Folded or not, one Resolve shows (the header holds both layouts, a container query picks one).
  await expect(header.getByText("Resolver", { exact: true }).filter({ visible: true })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await capture(page, "layout-1366-drawer");
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();

  // 390 px: one pane at a time, the main action and one menu, the audio player inside its bubble.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const audio = page.getByRole("log").locator("audio");
  await expect(audio).toBeVisible();
  const bubble = audio.locator("xpath=ancestor::*[@role='article'][1]");
  const [audioBox, bubbleBox] = [await audio.boundingBox(), await bubble.boundingBox()];
  expect(audioBox!.x + audioBox!.width).toBeLessThanOrEqual(bubbleBox!.x + bubbleBox!.width);
  const log = page.getByRole("log");
  expect(await log.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  expect(await width(textBox(page))).toBeGreaterThanOrEqual(150);
  // Issue 20: the status's main action stays a button on screen; the others fold into the menu.
  await expect(page.getByRole("button", { name: "Resolver", exact: true })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole("button", { name: "Retornar", exact: true })).toBeHidden();
  await page.getByRole("button", { name: "Ações do ticket" }).click();
  await expect(page.getByRole("menuitem", { name: "Retornar" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Transferir" })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await capture(page, "layout-390-actions");
});
