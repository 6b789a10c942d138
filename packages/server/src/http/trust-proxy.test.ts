import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, PASSWORD } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/harness.js";
import { parseTrustProxy } from "../config.js";
import { isPrivateAddress, trustProxyOption } from "./trust-proxy.js";

describe("TRUST_PROXY=1 behind one proxy (the example in docs/deploy.md)", () => {
  let t: TestApp;
  beforeAll(async () => {
    // Three failures per address before waits start: a lock-out is three requests away.
    t = await createTestApp({
      start: false,
      config: { trustProxy: parseTrustProxy("1"), rateLimit: { windowMs: 60_000, perIp: 3, perEmail: 100 } },
    });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, peer: string, forwardedFor?: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: peer,
      headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
      payload: { email, password },
    });

  it("sees each client's own address: one client's failures never lock the others out", async () => {
    const user = await makeUser(t);
    for (let i = 0; i < 3; i++)
      expect((await login(`nobody-${i}@zapdesk.test`, "wrong", "127.0.0.1", "203.0.113.5")).statusCode).toBe(401);
    expect((await login("nobody@zapdesk.test", "wrong", "127.0.0.1", "203.0.113.5")).statusCode).toBe(429);
    // Another customer of the same proxy signs in at once.
    expect((await login(user.email, PASSWORD, "127.0.0.1", "203.0.113.6")).statusCode).toBe(200);
    // A proxy on the private network counts the same way.
    expect((await login(user.email, PASSWORD, "10.1.2.3", "198.51.100.20")).statusCode).toBe(200);
  });

  it("does not believe the header from a client that reaches the server directly", async () => {
    const peer = "198.51.100.7";
    for (let i = 0; i < 3; i++) expect((await login("x@zapdesk.test", "wrong", peer, `192.0.2.${i + 1}`)).statusCode).toBe(401);
    // Writing yet another address in the header does not buy a fresh allowance.
    expect((await login("x@zapdesk.test", "wrong", peer, "192.0.2.99")).statusCode).toBe(429);
  });
});

describe("trustProxyOption", () => {
  it("translates a hop count into hops that must each be a private or loopback address", () => {
    const rule = trustProxyOption(2) as (address: string, hop: number) => boolean;
    expect(rule("127.0.0.1", 0)).toBe(true);
    expect(rule("::ffff:10.0.0.9", 1)).toBe(true);
    expect(rule("10.0.0.9", 2)).toBe(false);
    expect(rule("203.0.113.1", 0)).toBe(false);
    expect(trustProxyOption(0)).toBe(false);
    expect(trustProxyOption(undefined)).toBe(false);
    expect(trustProxyOption("10.0.0.1,10.0.0.2")).toBe("10.0.0.1,10.0.0.2");
  });

  it("knows the private ranges", () => {
    for (const address of ["127.0.0.1", "10.255.0.1", "172.31.9.9", "192.168.1.1", "::1", "fd00::1", "fe80::1"])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ["172.32.0.1", "8.8.8.8", "2001:db8::1", "not-an-ip"])
      expect(isPrivateAddress(address), address).toBe(false);
  });
});
