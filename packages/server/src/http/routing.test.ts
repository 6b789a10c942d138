import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, type TestUser } from "../../test/factories.js";
import { createTestApp, expectNoLeak, type TestApp } from "../../test/harness.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ start: false });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: "GET", url, headers: admin.auth });

describe("a trailing slash", () => {
  it("answers a spec path as without it (Whaticket-style clients add one)", async () => {
    for (const path of [
      "/api/users",
      "/api/whatsapp",
      "/api/quickAnswers",
      "/api/queue",
      "/api/contacts",
      "/api/tickets",
      "/api/settings",
      `/api/users/${admin.id}`,
    ]) {
      const plain = await get(path);
      const slashed = await get(`${path}/`);
      expect(plain.statusCode, path).toBe(200);
      expect(slashed.statusCode, `${path}/ ${slashed.body.slice(0, 200)}`).toBe(200);
      expect(slashed.json(), `${path}/`).toEqual(plain.json());
    }
    const withQuery = await get("/api/users/?searchParam=Adm");
    expect(withQuery.statusCode).toBe(200);
    expect(withQuery.json().users.length).toBeGreaterThan(0);
  });

  it("works for writes too", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/queue/",
      headers: admin.auth,
      payload: { name: "Slashed queue", color: "#a1b2c3" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe("Slashed queue");
  });
});

describe("oversized URLs", () => {
  it("an over-long path parameter is 414 with a catalogue code", async () => {
    const res = await get(`/api/settings/${"k".repeat(600)}`);
    expect(res.statusCode).toBe(414);
    expect(res.json()).toMatchObject({ error: "ERR_URL_TOO_LONG" });
  });

  it("a very long query string is 414 with a catalogue code", async () => {
    const res = await get(`/api/contacts?searchParam=${"q".repeat(9000)}`);
    expect(res.statusCode).toBe(414);
    expect(res.json()).toMatchObject({ error: "ERR_URL_TOO_LONG" });
  });

  it("a request line beyond what Node parses is refused in the same shape over real HTTP", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: `/api/contacts?searchParam=${"q".repeat(20_000)}` }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(answer.status).toBe(414);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "ERR_URL_TOO_LONG" });
    expectNoLeak(answer.body);
  });
});
