import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.js";

let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "zapdesk-web-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>Zapdesk</title>");
  writeFileSync(join(dist, "assets", "app.js"), "console.log('app')");
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
