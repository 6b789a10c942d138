import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/harness.js";

let dist: string;
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), "zapdesk-csp-"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>Zapdesk</title>");
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** The policy as a map of directive -> sources. */
function policyOf(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe("string");
  return new Map(
    String(header)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

async function page(t: TestApp, host = "zapdesk.lan:8080") {
  const res = await t.app.inject({ method: "GET", url: "/tickets", headers: { host } });
  expect(res.statusCode).toBe(200);
  return { res, policy: policyOf(res.headers["content-security-policy"]) };
}

describe.each([
  { publicUrl: "http://zapdesk.lan:8080", https: false, socket: "ws://zapdesk.lan:8080" },
  { publicUrl: "https://support.example.com", https: true, socket: "wss://support.example.com" },
])("security headers with PUBLIC_URL=$publicUrl", ({ publicUrl, https, socket }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { webDist: dist, publicUrl }, start: false });
  });
  afterAll(() => t.close());

  it(`${https ? "upgrades" : "does not upgrade"} requests and ${https ? "sends" : "does not send"} HSTS`, async () => {
    const { res, policy } = await page(t);
    expect(policy.has("upgrade-insecure-requests")).toBe(https);
    expect(res.headers["strict-transport-security"] !== undefined).toBe(https);
    const api = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(policyOf(api.headers["content-security-policy"]).has("upgrade-insecure-requests")).toBe(https);
  });

  it("connects only to its own origin and socket", async () => {
    const { policy } = await page(t);
    expect(policy.get("connect-src")).toEqual(["'self'", socket]);
  });

  it("shows images only from itself, previews and WhatsApp's profile pictures", async () => {
    const { policy } = await page(t);
    expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:", "https://pps.whatsapp.net"]);
    expect(policy.get("script-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
  });

  it("frames only the sales and community pages set in settings", async () => {
    expect((await page(t)).policy.get("frame-src")).toEqual(["'none'"]);
    const admin = await makeAdmin(t);
    for (const [key, value] of [
      ["salesPageUrl", "https://sales.example.com/plans?ref=zapdesk"],
      ["communityPageUrl", "http://forum.example.org:8081/c/zapdesk"],
    ]) {
      const res = await t.app.inject({ method: "PUT", url: `/api/settings/${key}`, headers: admin.auth, payload: { value } });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await page(t)).policy.get("frame-src")).toEqual(["https://sales.example.com", "http://forum.example.org:8081"]);
  });
});

describe("security headers without PUBLIC_URL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { webDist: dist, publicUrl: undefined }, start: false });
  });
  afterAll(() => t.close());

  it("serves a plain-HTTP LAN address without upgrading, with the socket of the host asked for", async () => {
    const { res, policy } = await page(t, "192.168.0.10:8080");
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
    expect(res.headers["strict-transport-security"]).toBeUndefined();
    expect(policy.get("connect-src")).toEqual(["'self'", "ws://192.168.0.10:8080", "wss://192.168.0.10:8080"]);
  });

  it("never writes a strange Host header into the policy", async () => {
    const { policy } = await page(t, "evil.example; script-src *");
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("script-src")).toEqual(["'self'"]);
  });
});
