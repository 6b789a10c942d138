import { PUBLIC_SETTING_KEYS } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  agent = await makeUser(t);
});
afterAll(() => t.close());

const put = (key: string, payload: object, who?: TestUser) =>
  t.app.inject({ method: "PUT", url: `/api/settings/${key}`, headers: who?.auth, payload });

describe("GET /api/settings", () => {
  it("lists every seeded setting for an admin", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
    expect(res.statusCode).toBe(200);
    const byKey = Object.fromEntries(res.json().map((s: { key: string; value: string }) => [s.key, s.value]));
    expect(byKey).toMatchObject({
      userCreation: "disabled",
      timeCreateNewTicket: "7200",
      call: "enabled",
      CheckMsgIsGroup: "disabled",
    });
    expect(byKey.userApiToken).toMatch(/^[\w-]{20,}$/);
  });

  it("is admin-only and needs a session", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/settings", headers: agent.auth });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
    expect((await t.app.inject({ method: "GET", url: "/api/settings" })).statusCode).toBe(401);
  });
});

describe("GET /api/public-settings", () => {
  it("shows anyone the public settings and never the API token", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/public-settings" });
    expect(res.statusCode).toBe(200);
    const keys = res.json().map((s: { key: string }) => s.key);
    expect(keys.sort()).toEqual([...PUBLIC_SETTING_KEYS].sort());
    expect(res.body).not.toContain("userApiToken");
  });
});

describe("PUT /api/settings/:key", () => {
  it("lets an admin change a setting", async () => {
    const res = await put("timeCreateNewTicket", { value: "3600" }, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ key: "timeCreateNewTicket", value: "3600" });
    const list = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
    expect(list.json()).toContainEqual({ key: "timeCreateNewTicket", value: "3600" });
  });

  it("validates the value for the key, with the path of the value", async () => {
    for (const [key, value] of [
      ["userCreation", "maybe"],
      ["timeCreateNewTicket", "12345"],
      ["salesPageUrl", "javascript:alert(1)"],
    ]) {
      const res = await put(key, { value }, admin);
      expect(res.statusCode, key).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().details[0].path[0]).toBe("value");
    }
    const missing = await put("call", {}, admin);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details[0].path).toEqual(["value"]);
    const wrongType = await put("call", { value: true }, admin);
    expect(wrongType.json().details[0].path).toEqual(["value"]);
  });

  it("keeps the generated API token read-only", async () => {
    const res = await put("userApiToken", { value: "my-own-token" }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toEqual(["value"]);
  });

  it("answers ERR_NO_SETTING_FOUND for an unknown key", async () => {
    const res = await put("noSuchSetting", { value: "x" }, admin);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe("ERR_NO_SETTING_FOUND");
  });

  it("is admin-only and needs a session", async () => {
    const res = await put("call", { value: "disabled" }, agent);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
    expect((await put("call", { value: "disabled" })).statusCode).toBe(401);
    const list = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
    expect(list.json()).toContainEqual({ key: "call", value: "enabled" });
  });
});

describe("POST /api/settings/userApiToken/rotate", () => {
  const send = (token: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}` },
      payload: { number: "5511999990000", body: "hello" },
    });
  const currentToken = async () =>
    (await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth }))
      .json()
      .find((s: { key: string }) => s.key === "userApiToken").value as string;

  it("gives a new token at once and the old one stops working", async () => {
    const old = await currentToken();
    // No connection here: past the token check the send stops at ERR_NO_DEF_WAPP_FOUND.
    expect((await send(old)).json().error).toBe("ERR_NO_DEF_WAPP_FOUND");
    const res = await t.app.inject({ method: "POST", url: "/api/settings/userApiToken/rotate", headers: admin.auth });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().value;
    expect(res.json()).toEqual({ key: "userApiToken", value: expect.stringMatching(/^[\w-]{20,}$/) });
    expect(fresh).not.toBe(old);
    expect(await currentToken()).toBe(fresh);
    const refused = await send(old);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("ERR_NO_PERMISSION");
    expect((await send(fresh)).json().error).toBe("ERR_NO_DEF_WAPP_FOUND");
  });

  it("is admin-only and needs a session", async () => {
    const before = await currentToken();
    const res = await t.app.inject({ method: "POST", url: "/api/settings/userApiToken/rotate", headers: agent.auth });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
    expect((await t.app.inject({ method: "POST", url: "/api/settings/userApiToken/rotate" })).statusCode).toBe(401);
    expect(await currentToken()).toBe(before);
  });
});
