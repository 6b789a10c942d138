import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testConfig } from "../../../test/harness.js";
import { loadConfig } from "../../config.js";
import { generateVapidKeys, resolveVapid } from "./vapid.js";

describe("VAPID keys", () => {
  it("are generated once into DATA_DIR in embedded mode and read back after a restart", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-vapid-"));
    const first = resolveVapid(testConfig({ dataDir, env: "development" }));
    const again = resolveVapid(testConfig({ dataDir, env: "development" }));
    expect(first?.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(first?.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(again).toEqual(first);
    expect(first?.subject).toBe("mailto:admin@zapdesk.test");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("come from VAPID_* in production, and push is off there without them", () => {
    const keys = generateVapidKeys();
    const env = {
      NODE_ENV: "production",
      JWT_SECRET: "x".repeat(32),
      JWT_REFRESH_SECRET: "y".repeat(32),
      ENCRYPTION_KEY: "z".repeat(32),
    };
    const given = loadConfig({
      ...env,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: "mailto:ops@example.com",
    });
    expect(resolveVapid(given)).toEqual({ ...keys, subject: "mailto:ops@example.com" });
    expect(resolveVapid(loadConfig(env))).toBeUndefined();
    expect(() => loadConfig({ ...env, VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(/set together/);
    expect(() => loadConfig({ ...env, VAPID_PUBLIC_KEY: "nope", VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY/,
    );
  });
});
