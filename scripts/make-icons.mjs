// Draws the PWA icons from packages/web/public/favicon.svg with headless Chromium (Playwright):
// `node scripts/make-icons.mjs`. The PNGs are committed; run again after changing the logo.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const publicDir = join(dirname(fileURLToPath(import.meta.url)), "../packages/web/public");
const svg = readFileSync(join(publicDir, "favicon.svg"), "utf8");
const logo = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
const BRAND = "#00a884";

/** `any`: the logo as drawn (rounded, transparent corners). `full`: full-bleed brand square, logo at `scale` (maskable: 80% safe zone). */
const icons = [
  { file: "icon-192.png", size: 192, kind: "any" },
  { file: "icon-512.png", size: 512, kind: "any" },
  { file: "icon-maskable-192.png", size: 192, kind: "full", scale: 0.8 },
  { file: "icon-maskable-512.png", size: 512, kind: "full", scale: 0.8 },
  { file: "apple-touch-icon.png", size: 180, kind: "full", scale: 0.94 },
];

const browser = await chromium.launch({
  executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
for (const icon of icons) {
  const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
  const inner = icon.kind === "full" ? Math.round(icon.size * icon.scale) : icon.size;
  const background = icon.kind === "full" ? BRAND : "transparent";
  await page.setContent(
    `<html><body style="margin:0;background:${background};display:grid;place-items:center;width:${icon.size}px;height:${icon.size}px">` +
      `<img src="${logo}" width="${inner}" height="${inner}"></body></html>`,
  );
  await page.screenshot({ path: join(publicDir, icon.file), omitBackground: icon.kind === "any" });
  await page.close();
}
await browser.close();
console.log(`icons written to ${publicDir}`);
