import { expect, type Page } from "@playwright/test";
import { ZapdeskApi } from "./conversation/zapdesk-api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, capture, newSession, runId, test } from "./support/app";

const run = runId();

/** What a bar chart draws: its value axis ticks (value and pixel height) and the height of each bar. */
async function measureChart(page: Page, title: string) {
  const figure = page.getByRole("figure", { name: title });
  await expect(figure.locator(".recharts-bar-rectangle path").first()).toBeVisible();
  return figure.evaluate((element) => {
    // Labels and tick lines are drawn in two groups, in the same order.
    const lines = [...element.querySelectorAll(".recharts-yAxis-tick-lines .recharts-cartesian-axis-tick-line")];
    const labels = [...element.querySelectorAll(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value")];
    const ticks = labels.map((label, i) => ({ value: Number(label.textContent), y: lines[i].getBoundingClientRect().top }));
    const bars = [...element.querySelectorAll(".recharts-bar-rectangle path")].map((bar) => bar.getBoundingClientRect().height);
    return { ticks, bars };
  });
}

test("dashboard bars reach their value on a whole-number axis; months are named in the interface's language", async ({
  browser,
  request,
}) => {
  // An agent with a queue of their own: the dashboard counts the tickets of their queues.
  const admin = new ZapdeskApi(request);
  await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const color = `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
  const queue = await admin.createQueue(`Bars ${run}`, color);
  await admin.createUser(`Dora ${run}`, `dora-${run}@e2e.local`, "secret123", [queue.id]);
  const whatsappId = await admin.createSimulator([queue.id]);
  await admin.customerWrites(whatsappId, { from: `5511${String(Date.now()).slice(-8)}`, name: "Bia", body: "Oi" });

  const page = await newSession(browser, `dora-${run}@e2e.local`, "secret123");
  const asAgent = new ZapdeskApi(request);
  await asAgent.login(`dora-${run}@e2e.local`, "secret123");
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  // Other journeys create tickets while this one runs (a ticket without queue counts for every
  // agent): read the counts and the drawn chart at one moment, reloading until they agree.
  await expect(async () => {
    const stats = await asAgent.get<{ month: { key: number; count: number }[] }>(`/dashboard?tz=${encodeURIComponent(timeZone)}`);
    const largest = Math.max(...stats.month.map((b) => b.count));
    expect(largest).toBeGreaterThanOrEqual(1);
    await page.reload();
    const { ticks, bars } = await measureChart(page, "Tickets por dia do mês");
    const again = await asAgent.get<{ month: { key: number; count: number }[] }>(`/dashboard?tz=${encodeURIComponent(timeZone)}`);
    expect(Math.max(...again.month.map((b) => b.count)), "counts changed while measuring").toBe(largest);
    const values = ticks.map((t) => t.value);
    const step = values[1] - values[0];
    // Whole numbers from 0, evenly spaced, and the top tick is the first one that reaches the largest count.
    expect(values[0]).toBe(0);
    expect(values.every((v, i) => Number.isInteger(v) && v === i * step)).toBe(true);
    const top = values[values.length - 1];
    expect(top).toBeGreaterThanOrEqual(largest);
    expect(top - step).toBeLessThan(largest);
    // The tallest bar is as high, in pixels, as its value on that axis.
    const axisPixels = ticks[0].y - ticks[ticks.length - 1].y;
    expect(Math.abs(Math.max(...bars) - (largest / top) * axisPixels)).toBeLessThanOrEqual(1.5);
  }).toPass({ timeout: 30_000 });
  await capture(page, "dashboard-bars");

  // The month picker speaks the interface's language, not the browser's (pt-BR here).
  await page.getByRole("button", { name: "Mudar idioma" }).click();
  await page.getByRole("menuitem", { name: "English" }).click();
  const months = page.getByRole("combobox", { name: "Month" });
  await expect(months.locator("option").first()).toHaveText("January");
  await expect(months.locator("option")).toHaveCount(12);
});
