import { SERVICE_WINDOW_MS } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { serviceWindowAt, splitRemaining } from "./use-service-window";

const now = Date.parse("2026-03-04T12:00:00.000Z");
const cloud = { id: 8, name: "Official", provider: "cloud" as const };

describe("the 24-hour service window", () => {
  it("does not apply to connections without it", () => {
    expect(serviceWindowAt({ whatsapp: { ...cloud, provider: "baileys" }, lastInboundAt: null }, now)).toEqual({
      applies: false,
    });
    expect(serviceWindowAt({ whatsapp: null, lastInboundAt: null }, now)).toEqual({ applies: false });
  });

  it("is open for 24 h after the customer's last message, then closed", () => {
    const wrote = new Date(now - 60 * 60 * 1000).toISOString();
    expect(serviceWindowAt({ whatsapp: cloud, lastInboundAt: wrote }, now)).toEqual({
      applies: true,
      open: true,
      remainingMs: SERVICE_WINDOW_MS - 60 * 60 * 1000,
    });
    const longAgo = new Date(now - SERVICE_WINDOW_MS).toISOString();
    expect(serviceWindowAt({ whatsapp: cloud, lastInboundAt: longAgo }, now)).toEqual({ applies: true, open: false });
  });

  it("is closed when the customer never wrote (a conversation we start)", () => {
    expect(serviceWindowAt({ whatsapp: cloud, lastInboundAt: null }, now)).toEqual({ applies: true, open: false });
  });

  it("splits what remains into hours and minutes", () => {
    expect(splitRemaining(23 * 3600_000 + 5 * 60_000 + 59_000)).toEqual({ hours: 23, minutes: 5 });
    expect(splitRemaining(59_000)).toEqual({ hours: 0, minutes: 0 });
  });
});
