import { describe, expect, it } from "vitest";
import { createTestApp, manualClock } from "../../../test/harness.js";
import { parseEnv } from "../../config.js";
import { GRAPH_DEFAULT_URL, graphVersionOf, graphVersionWarning } from "./graph-version.js";

const at = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe("Graph API version", () => {
  it("calls v25.0 by default", () => {
    expect(GRAPH_DEFAULT_URL).toBe("https://graph.facebook.com/v25.0");
    expect(parseEnv({}).WHATSAPP_GRAPH_URL).toBe("https://graph.facebook.com/v25.0");
    expect(graphVersionOf("https://graph.facebook.com/v25.0")).toBe("v25.0");
    expect(graphVersionOf("http://127.0.0.1:4000/proxy/v22.0/")).toBe("v22.0");
  });

  it("warns within 90 days of the version's expiry, and after it", () => {
    const v21 = "https://graph.facebook.com/v21.0";
    expect(graphVersionWarning(v21, at("2026-10-22"))).toBeUndefined();
    expect(graphVersionWarning(v21, at("2026-10-24"))).toMatch(/v21\.0 expires on 2027-01-21 \(in 89 days\).*v25\.0/);
    expect(graphVersionWarning(v21, at("2027-02-01"))).toMatch(/v21\.0 expired on 2027-01-21.*v25\.0/);
    expect(graphVersionWarning("https://graph.facebook.com/v24.0", at("2027-12-01"))).toMatch(/v24\.0 expires on 2028-02-18/);
    expect(graphVersionWarning(GRAPH_DEFAULT_URL, at("2026-11-15"))).toBeUndefined();
    // The newest known version near its end: only a newer release can help.
    expect(graphVersionWarning(GRAPH_DEFAULT_URL, at("2028-06-01"))).toMatch(/v25\.0 expires on 2028-07-29.*upgrade Zapdesk/);
  });

  it("says clearly when the version is unknown or missing", () => {
    expect(graphVersionWarning("https://graph.facebook.com/v19.0", at("2026-11-15"))).toMatch(
      /v19\.0 is not a version this release knows.*v25\.0/,
    );
    expect(graphVersionWarning("https://graph.facebook.com/v99.0", at("2026-11-15"))).toMatch(/v99\.0 is not a version/);
    expect(graphVersionWarning("https://graph.facebook.com", at("2026-11-15"))).toMatch(/names no Graph API version/);
  });

  it("is logged at boot, by the injected clock", async () => {
    const lines: string[] = [];
    const logStream = { write: (line: string) => void lines.push(line) };
    const t = await createTestApp({
      clock: manualClock(at("2026-12-01")),
      config: { graphUrl: "https://graph.facebook.com/v21.0", logLevel: "warn" },
      logStream,
    });
    try {
      const warning = lines.map((line) => JSON.parse(line)).find((entry) => /Graph API v21\.0/.test(entry.msg));
      expect(warning).toMatchObject({ level: 40, graphUrl: "https://graph.facebook.com/v21.0" });
      expect(warning.msg).toMatch(/expires on 2027-01-21 \(in 51 days\)/);
    } finally {
      await t.close();
    }
  });
});
