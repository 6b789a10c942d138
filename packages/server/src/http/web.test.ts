import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.js";

let t: TestApp;
let dist: string;
const HASHED = "index-C7nY_W-V.js";
/** The web package: index.html and the public/ folder Vite copies into the build. */
const web = resolve(dirname(fileURLToPath(import.meta.url)), "../../../web");

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "zapdesk-web-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>Zapdesk</title>");
  writeFileSync(join(dist, "assets", "app.js"), "console.log('app')");
  copyFileSync(join(web, "public", "favicon.svg"), join(dist, "favicon.svg"));
  // What the build writes: a hashed chunk with its precompressed siblings and a source map.
  const chunk = `export const big = ${JSON.stringify("zapdesk ".repeat(500))};`;
  writeFileSync(join(dist, "assets", HASHED), chunk);
  writeFileSync(join(dist, "assets", `${HASHED}.br`), brotliCompressSync(chunk));
  writeFileSync(join(dist, "assets", `${HASHED}.gz`), gzipSync(chunk));
  writeFileSync(join(dist, "assets", `${HASHED}.map`), '{"version":3,"sources":["secret.ts"]}');
  mkdirSync(join(dist, ".vite"));
  writeFileSync(join(dist, ".vite", "manifest.json"), "{}");
  t = await createTestApp({ config: { webDist: dist }, start: false });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe("the web app", () => {
  it("is served at / with history fallback, files as files, and a 404 for a missing file or API path", async () => {
    for (const url of ["/", "/tickets/12", "/Settings"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain("<title>Zapdesk</title>");
    }
    const js = await t.app.inject({ method: "GET", url: "/assets/app.js" });
    expect(js.headers["content-type"]).toMatch(/javascript/);
    expect((await t.app.inject({ method: "GET", url: "/assets/gone.js" })).statusCode).toBe(404);
    const api = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toBe("ERR_NOT_FOUND");
  });

  it("serves files of a rebuild made after the server started", async () => {
    writeFileSync(join(dist, "assets", "rebuilt-abc123.js"), "console.log('new')");
    const res = await t.app.inject({ method: "GET", url: "/assets/rebuilt-abc123.js" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("console.log('new')");
  });
});

describe("caching and compression", () => {
  it("marks hashed assets immutable for a year and revalidates index.html, however it is reached", async () => {
    const asset = await t.app.inject({ method: "GET", url: `/assets/${HASHED}` });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    for (const url of ["/", "/index.html", "/tickets/12"]) {
      const page = await t.app.inject({ method: "GET", url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["cache-control"], url).toBe("no-cache");
    }
    // A name without a build hash may change under the same URL.
    expect((await t.app.inject({ method: "GET", url: "/favicon.svg" })).headers["cache-control"]).toBe("no-cache");
  });

  it("answers the precompressed file the browser accepts, and the plain one otherwise", async () => {
    const url = `/assets/${HASHED}`;
    const br = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain("export const big");
    const gz = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    const plain = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toContain("export const big");
  });

  it("serves no source map and not the build's manifest", async () => {
    for (const url of [`/assets/${HASHED}.map`, "/.vite/manifest.json"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain("secret.ts");
    }
  });
});

describe("the favicon", () => {
  it("is linked from the app's page, shipped in public/ and served by the server", async () => {
    const page = readFileSync(join(web, "index.html"), "utf8");
    const href = page.match(/<link rel="icon" type="image\/svg\+xml" href="\/([^"]+)"/)?.[1];
    expect(href).toBe("favicon.svg");
    expect(existsSync(join(web, "public", href as string))).toBe(true);

    const icon = await t.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(icon.body).toContain("<svg");
    const legacy = await t.app.inject({ method: "GET", url: "/favicon.ico" });
    expect(legacy.statusCode).toBe(301);
    expect(legacy.headers.location).toBe("/favicon.svg");
  });
});
