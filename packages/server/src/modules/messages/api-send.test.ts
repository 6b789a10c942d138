import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, uniqueIp } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: { windowMs: 60_000, perIp: 1000, perEmail: 1000, apiSendPerMinute: 3 } } });
  const admin = await makeAdmin(t);
  const settings = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
  token = settings.json().find((s: { key: string }) => s.key === "userApiToken").value;
});
afterAll(() => t.close());

const send = (ip: string, bearer = token) =>
  t.app.inject({
    method: "POST",
    url: "/api/messages/send",
    remoteAddress: ip,
    headers: { authorization: `Bearer ${bearer}` },
    payload: { number: "5511999990000", body: "hello" },
  });

describe("POST /api/messages/send rate limit", () => {
  it("answers 429 ERR_RATE_LIMITED with Retry-After past the allowance of an address, guesses included", async () => {
    const ip = uniqueIp();
    expect((await send(ip, "a-wrong-guess")).statusCode).toBe(403);
    // Past the token check (no connection here): the allowance counts every call.
    expect((await send(ip)).json().error).toBe("ERR_NO_DEF_WAPP_FOUND");
    expect((await send(ip)).json().error).toBe("ERR_NO_DEF_WAPP_FOUND");
    for (const bearer of [token, "another-guess"]) {
      const limited = await send(ip, bearer);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe("ERR_RATE_LIMITED");
      const retryAfter = Number(limited.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Another address keeps its own allowance.
    expect((await send(uniqueIp())).json().error).toBe("ERR_NO_DEF_WAPP_FOUND");
  });
});
