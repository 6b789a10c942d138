import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ start: false });
});
afterAll(() => t.close());

describe("CSAT in the OpenAPI document", () => {
  it("describes the ratings route, the connection's survey fields and the ticket's rating", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, Record<string, unknown>> };
    const ratings = doc.paths["/api/dashboard/ratings"]?.get as { responses: Record<string, unknown> } | undefined;
    expect(ratings?.responses).toHaveProperty("200");
    const text = JSON.stringify(doc);
    expect(text).toContain("ratingTimeoutMinutes");
    expect(text).toContain("ratingMessage");
    expect(JSON.stringify(doc.paths["/api/tickets/{id}"])).toContain('"rating"');
  });
});
