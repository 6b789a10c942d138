import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.js";
import type { Config } from "../config.js";

// Issue 10 item 3: production logs requests at debug level only; errors and warnings stay.
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function requestLines(config: Partial<Config>) {
  const lines: { level: number; msg: string }[] = [];
  t = await createTestApp({ start: false, config, logStream: { write: (line) => lines.push(JSON.parse(line)) } });
  await t.app.inject({ method: "GET", url: "/api/health" });
  await t.app.inject({ method: "GET", url: "/api/tickets" });
  return lines.filter((l) => l.msg === "incoming request" || l.msg === "request completed");
}

describe("request logging", () => {
  it("writes no line per request in production at info level", async () => {
    expect(await requestLines({ env: "production", logLevel: "info" })).toEqual([]);
  });

  it("shows them at debug level in production when LOG_LEVEL=debug", async () => {
    const lines = await requestLines({ env: "production", logLevel: "debug" });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [20, "incoming request"],
      [20, "request completed"],
      [20, "incoming request"],
      [20, "request completed"],
    ]);
  });

  it("keeps Fastify's info lines outside production", async () => {
    const lines = await requestLines({ env: "development", logLevel: "info" });
    expect(lines.map((l) => l.level)).toEqual([30, 30, 30, 30]);
  });
});
