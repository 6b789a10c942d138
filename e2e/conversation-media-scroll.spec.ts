import { expect, type Page } from "@playwright/test";
import sharp from "sharp";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, logIn, runId, test } from "./support/app";

const run = runId();

/** A real picture: a plain colour at that size, encoded as the format asks. */
async function picture(width: number, height: number, colour: string, format: "png" | "webp" | "jpeg") {
  const image = sharp({ create: { width, height, channels: 3, background: colour } });
  return (await image.toFormat(format).toBuffer()).toString("base64");
}

/** How far the conversation is from its bottom, in px. */
const fromBottom = (page: Page) => page.getByRole("log").evaluate((log) => log.scrollHeight - log.scrollTop - log.clientHeight);

test("a conversation with pictures opens at its newest message and stays there while they load (issue 20 §2.1)", async ({
  page,
  request,
}) => {
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  // A queue of its own: a ticket left without a queue would sit in every agent's Waiting list, and
  // the journeys after this one start from an empty list.
  const queue = await admin.createQueue(
    `Fotos ${run}`,
    `#${Math.floor(Math.random() * 0xffffff)
      .toString(16)
      .padStart(6, "0")}`,
  );
  const whatsappId = await admin.createSimulator([queue.id]);
  const customer = `5511${String(Date.now()).slice(-8)}`;
  const last = `Última mensagem ${run}`;
  await admin.customerWrites(whatsappId, { from: customer, name: `Fotos ${run}`, body: "Olá, seguem as fotos" });
  const sent: [string, string, string][] = [
    ["image/png", "frente.png", await picture(640, 480, "#3366aa", "png")],
    ["image/jpeg", "lado.jpg", await picture(480, 640, "#aa6633", "jpeg")],
    ["image/webp", "figurinha.webp", await picture(512, 512, "#33aa66", "webp")],
    ["image/png", "detalhe.png", await picture(800, 300, "#aa3366", "png")],
    ["image/jpeg", "nota-fiscal.jpg", await picture(600, 800, "#666699", "jpeg")],
  ];
  for (const [mimetype, filename, dataBase64] of sent) {
    await admin.post(`/simulator/${whatsappId}/inbound`, { from: customer, media: { mimetype, filename, dataBase64 } });
  }
  await admin.customerWrites(whatsappId, { from: customer, body: last });
  const { tickets } = await admin.get<{ tickets: { id: number; contact: { number: string } }[] }>(
    "/tickets?status=pending&showAll=true",
  );
  const ticketId = tickets.find((t) => t.contact.number === customer)!.id;
  // Every picture stored on the server before the agent opens the chat.
  await expect
    .poll(
      async () => {
        const { messages } = await admin.get<{ messages: { mediaUrl: string | null }[] }>(`/messages/${ticketId}`);
        return messages.filter((m) => m.mediaUrl).length;
      },
      { timeout: 20_000 },
    )
    .toBe(sent.length);

  // The pictures arrive one after another, well after the text: as on a slow connection.
  let served = 0;
  await page.route("**/api/messages/*/media", async (route) => {
    served += 1;
    await new Promise((resolve) => setTimeout(resolve, 400 + served * 250));
    await route.continue();
  });

  await page.setViewportSize({ width: 1280, height: 800 });
  await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto(`/tickets/${ticketId}`);
  const log = page.getByRole("log");
  await expect(log.getByText(last)).toBeVisible({ timeout: 30_000 });
  // Every picture in view has loaded, and the slowest has had time to settle.
  await expect.poll(() => served, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  await expect
    .poll(
      () =>
        log
          .locator("img")
          .evaluateAll(
            (images) =>
              images.length > 0 &&
              images.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalHeight > 0),
          ),
      { timeout: 30_000 },
    )
    .toBe(true);
  await expect(log.getByRole("progressbar")).toHaveCount(0);
  await page.waitForTimeout(500);

  expect(await fromBottom(page)).toBeLessThanOrEqual(2);
  await expect(log.getByText(last)).toBeInViewport({ ratio: 1 });
  await capture(page, "conversation-pictures-bottom");

  // Scrolled up by the agent, it stays where they put it.
  await log.evaluate((element) => {
    element.scrollTop = 0;
  });
  await page.waitForTimeout(300);
  const top = await log.evaluate((element) => element.scrollTop);
  expect(top).toBeLessThan(200);
});
