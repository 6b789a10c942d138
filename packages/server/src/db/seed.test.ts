import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, uniqueIp } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/harness.js";
import { seed } from "./seed.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const userCreation = async () =>
  (await t.app.inject({ method: "GET", url: "/api/public-settings" }))
    .json()
    .find((s: { key: string }) => s.key === "userCreation")?.value;

describe("seed", () => {
  it("closes sign-up on a fresh install; the first admin opens it, and a restart keeps that choice", async () => {
    expect(await userCreation()).toBe("disabled");
    const stranger = await t.app.inject({
      method: "POST",
      url: "/api/auth/signup",
      remoteAddress: uniqueIp(),
      payload: { name: "Stranger", email: `stranger-${Date.now()}@zapdesk.test`, password: "secret" },
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error).toBe("ERR_USER_CREATION_DISABLED");

    const admin = await makeAdmin(t);
    const open = await t.app.inject({
      method: "PUT",
      url: "/api/settings/userCreation",
      headers: admin.auth,
      payload: { value: "enabled" },
    });
    expect(open.statusCode).toBe(200);
    await seed(t.database.db, { email: t.config.adminEmail, password: t.config.adminPassword, name: t.config.adminName });
    expect(await userCreation()).toBe("enabled");
  });
});
