import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { makeAdmin, makeUser, PASSWORD, type TestUser } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/harness.js";
import { connectAs, listen, type RecordingSocket } from "../../test/sockets.js";
import { startTcpProxy } from "../../test/tcp-proxy.js";

/**
 * Two processes sharing one database and a real Redis reached through a TCP relay the test
 * can cut: Redis going away and coming back, as scaled-out installs see it.
 */
describe.skipIf(!process.env.TEST_REDIS_URL)("Redis down and back (TEST_REDIS_URL)", () => {
  let relay: Awaited<ReturnType<typeof startTcpProxy>>;
  let a: TestApp;
  let b: TestApp;
  let bUrl: string;
  const sockets: RecordingSocket[] = [];

  beforeAll(async () => {
    const redis = new URL(process.env.TEST_REDIS_URL as string);
    relay = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const redisUrl = `redis://127.0.0.1:${relay.port}`;
    const secrets = { jwtSecret: randomBytes(32).toString("hex"), jwtRefreshSecret: randomBytes(32).toString("hex") };
    const rateLimit = { windowMs: 60_000, perIp: 3, perEmail: 100 };
    a = await createTestApp({ start: false, config: { redisUrl, rateLimit, ...secrets } });
    b = await createTestApp({ start: false, database: a.database, config: { redisUrl, rateLimit, ...secrets } });
    bUrl = await listen(b);
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    await relay.start();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await relay?.stop();
  });

  const login = (app: TestApp, email: string, password: string, ip: string) =>
    app.app.inject({ method: "POST", url: "/api/auth/login", remoteAddress: ip, payload: { email, password } });

  it("signing in works while Redis is down, with this process's own limits", async () => {
    const user = await makeUser(a);
    await relay.stop();
    const started = Date.now();
    const ok = await login(a, user.email, PASSWORD, "203.0.113.10");
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    for (let i = 0; i < 3; i++) expect((await login(a, user.email, "wrong-password", "203.0.113.11")).statusCode).toBe(401);
    const limited = await login(a, user.email, "wrong-password", "203.0.113.11");
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe("ERR_RATE_LIMITED");
    // Back: the limits are shared again (another address starts with the whole allowance).
    await relay.start();
    await vi.waitFor(async () => expect((await login(a, user.email, PASSWORD, "203.0.113.12")).statusCode).toBe(200), {
      timeout: 10_000,
    });
  });

  it("a socket on another process is told to refetch once the adapter is back, and gets events again", async () => {
    const admin: TestUser = await makeAdmin(a);
    const socket = await connectAs(bUrl, admin, sockets);
    const queueEvents = () => socket.received.filter((r) => r.event === "queue");
    const createQueue = async (name: string) => {
      const res = await a.app.inject({
        method: "POST",
        url: "/api/queue",
        headers: admin.auth,
        payload: { name, color: `#${randomBytes(3).toString("hex").toUpperCase()}`, greetingMessage: "Hi" },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // Events flow between the processes (the adapters are connected) before the outage.
    await vi.waitFor(
      async () => {
        await createQueue(`before-${randomBytes(3).toString("hex")}`);
        expect(queueEvents().length).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 200 },
    );

    await relay.stop();
    // Written on process A while Redis is gone: B's socket never hears of it...
    await createQueue(`during-${randomBytes(3).toString("hex")}`);
    await relay.start();
    // ...so once Redis is back B's socket is told to refetch.
    await vi.waitFor(() => expect(socket.received.some((r) => r.event === "resync")).toBe(true), { timeout: 15_000 });
    // And events flow again once both processes have Redis back.
    await vi.waitFor(
      async () => {
        await createQueue(`after-${randomBytes(3).toString("hex")}`);
        expect(queueEvents().map((r) => (r.payload as { queue: { name: string } }).queue.name)).toContainEqual(
          expect.stringMatching(/^after-/),
        );
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});
