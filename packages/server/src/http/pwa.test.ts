import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.js";

/** Issue 13 item 7: the web app manifest, its icons and the push service worker, as the build ships them. */
let t: TestApp;
let dist: string;
const web = resolve(dirname(fileURLToPath(import.meta.url)), "../../../web");

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "zapdesk-pwa-"));
  cpSync(join(web, "public"), dist, { recursive: true });
  writeFileSync(join(dist, "index.html"), readFileSync(join(web, "index.html")));
  t = await createTestApp({ config: { webDist: dist }, start: false });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const pngSize = (bytes: Buffer) => {
  expect(bytes.subarray(1, 4).toString()).toBe("PNG");
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
};

describe("the web app manifest", () => {
  it("is linked from the page with the apple touch icon", () => {
    const page = readFileSync(join(web, "index.html"), "utf8");
    expect(page).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(page).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png" />');
    expect(page).toMatch(/<meta name="theme-color" content="#[0-9a-f]{6}" \/>/);
  });

  it("is served as application/manifest+json, revalidated, and names the app and its icons", async () => {
    const res = await t.app.inject({ method: "GET", url: "/manifest.webmanifest" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/manifest\+json/);
    expect(res.headers["cache-control"]).toBe("no-cache");
    const manifest = res.json();
    expect(manifest).toMatchObject({ name: "Zapdesk", short_name: "Zapdesk", start_url: "/", display: "standalone" });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
    expect(icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(
      ["192x192 any", "192x192 maskable", "512x512 any", "512x512 maskable", "any any"].sort(),
    );
    for (const icon of [...icons, { src: "/apple-touch-icon.png", sizes: "180x180", type: "image/png" }]) {
      const file = await t.app.inject({ method: "GET", url: icon.src });
      expect(file.statusCode, icon.src).toBe(200);
      expect(file.headers["content-type"], icon.src).toMatch(new RegExp(`^${icon.type.replace("+", "\\+")}`));
      if (icon.type === "image/png") expect(pngSize(file.rawPayload).join("x"), icon.src).toBe(icon.sizes);
    }
  });

  it("is not the build's .vite/manifest.json, which stays unserved", async () => {
    expect((await t.app.inject({ method: "GET", url: "/.vite/manifest.json" })).statusCode).toBe(404);
  });
});

describe("the service worker", () => {
  it("is served from the root under a fixed name, never cached without revalidation", async () => {
    const res = await t.app.inject({ method: "GET", url: "/sw.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.body).toContain('addEventListener("push"');
    expect(res.body).toContain('addEventListener("notificationclick"');
  });

  it("is allowed by the CSP, as is the manifest", async () => {
    const res = await t.app.inject({ method: "GET", url: "/" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });
});
