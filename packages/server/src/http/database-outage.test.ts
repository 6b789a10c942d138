import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { eventually } from "../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../test/factories.js";
import { createTestApp, expectNoLeak, openTestDatabase, type TestApp } from "../../test/harness.js";
import { startTcpProxy } from "../../test/tcp-proxy.js";
import { openDatabase } from "../db/client.js";

/** The server's log, line by line. */
function logSink() {
  const lines: { level: number; msg: string }[] = [];
  return {
    lines,
    stream: { write: (line: string) => lines.push(JSON.parse(line)) },
    count: (msg: string) => lines.filter((l) => l.msg.startsWith(msg)).length,
  };
}

const DOWN = "database unavailable";
const BACK = "database reachable again";

function expectUnavailable(res: LightMyRequestResponse, label: string) {
  expect(res.statusCode, `${label}: ${res.body}`).toBe(503);
  expect(res.json(), label).toEqual({ error: "ERR_SERVICE_UNAVAILABLE", message: expect.any(String) });
  expect(res.headers["retry-after"], label).toBe("5");
  expectNoLeak(res.body);
}

/** Requests across several routes, some at once. */
async function askAround(t: TestApp, admin: TestUser): Promise<LightMyRequestResponse[]> {
  const get = (url: string) => t.app.inject({ method: "GET", url, headers: admin.auth });
  const one = [await get("/api/users?searchParam=abc"), await get("/api/tickets")];
  const many = await Promise.all([
    get("/api/contacts"),
    get("/api/queue"),
    get("/api/whatsapp"),
    t.app.inject({
      method: "POST",
      url: "/api/quickAnswers",
      headers: admin.auth,
      payload: { shortcut: "x1", message: "A message" },
    }),
    t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: admin.email, password: "whatever" } }),
  ]);
  return [...one, ...many];
}

describe("while the database is down", () => {
  it("every request is 503 ERR_SERVICE_UNAVAILABLE with Retry-After, logged once", async () => {
    const log = logSink();
    const database = await openTestDatabase();
    const t = await createTestApp({ database, start: false, config: { logLevel: "info" }, logStream: log.stream });
    try {
      const admin = await makeAdmin(t);
      await database.close();
      for (const res of [...(await askAround(t, admin)), ...(await askAround(t, admin))])
        expectUnavailable(res, String(res.raw.req.url));
      expect(log.count(DOWN)).toBe(1);
      expect(log.count("unhandled error")).toBe(0);
    } finally {
      await t.close();
      await database.drop();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("a PostgreSQL outage and its end (TEST_DATABASE_URL)", () => {
  it("is logged once when it starts and once when it ends, and requests work again", async () => {
    const created = await openTestDatabase();
    await created.close();
    const url = new URL(created.url as string);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    const database = await openDatabase({ url: url.toString(), poolSize: 3 });
    const log = logSink();
    const t = await createTestApp({ database, start: false, config: { logLevel: "info" }, logStream: log.stream });
    try {
      const admin = await makeAdmin(t);
      const users = () => t.app.inject({ method: "GET", url: "/api/users", headers: admin.auth });
      expect((await users()).statusCode).toBe(200);

      for (const outage of [1, 2]) {
        await proxy.stop();
        for (const res of await askAround(t, admin)) expectUnavailable(res, `outage ${outage} ${res.raw.req.url}`);
        expect(log.count(DOWN)).toBe(outage);
        await proxy.start();
        await eventually(() => expect(log.count(BACK)).toBe(outage));
        expect((await users()).statusCode).toBe(200);
      }
    } finally {
      await t.close();
      await database.close();
      await proxy.stop();
      await created.drop();
    }
  });
});

describe("a failure that is not an outage", () => {
  it("is still 500 ERR_INTERNAL without stack or SQL", async () => {
    const database = await openTestDatabase();
    const t = await createTestApp({ database, start: false });
    try {
      const admin = await makeAdmin(t);
      await database.exec("drop table quick_answers cascade");
      const res = await t.app.inject({ method: "GET", url: "/api/quickAnswers", headers: admin.auth });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: "ERR_INTERNAL", message: expect.any(String) });
      expectNoLeak(res.body);
    } finally {
      await t.close();
      await database.close();
      await database.drop();
    }
  });
});
