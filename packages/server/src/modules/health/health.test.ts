import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, openTestDatabase, type TestApp } from "../../../test/harness.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GET /api/health", () => {
  it("answers ok without a session once the database is reachable", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("answers 503 with a code, not a stack, when the database is gone", async () => {
    const database = await openTestDatabase();
    // No WhatsApp sessions or outbox worker: nothing but HTTP should touch the dead database.
    const broken = await createTestApp({ database, start: false });
    try {
      await database.close();
      const res = await broken.app.inject({ method: "GET", url: "/api/health" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: "ERR_SERVICE_UNAVAILABLE", message: "Database unreachable" });
    } finally {
      await broken.close();
      await database.drop();
    }
  });
});
