import { sql } from "drizzle-orm";
import type pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { makeAdmin } from "../../test/factories.js";
import { createTestApp, expectNoLeak, openTestDatabase } from "../../test/harness.js";
import { startTcpProxy } from "../../test/tcp-proxy.js";
import { openDatabase } from "../db/client.js";
import { isDatabaseUnavailable } from "./database-outage.js";

/** A test database reached through a TCP relay the test can cut or freeze. */
async function behindRelay(connectTimeoutMs: number) {
  const created = await openTestDatabase();
  await created.close();
  const url = new URL(created.url as string);
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  const database = await openDatabase({ url: url.toString(), poolSize: 3, connectTimeoutMs });
  return {
    proxy,
    database,
    pool: (database.db as unknown as { $client: pg.Pool }).$client,
    async close() {
      await database.close();
      await proxy.stop();
      await created.drop();
    },
  };
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("PostgreSQL going away in the ways the field sees (TEST_DATABASE_URL)", () => {
  it("a server that accepts connections and never answers: 503 with Retry-After, not requests that hang", async () => {
    const relay = await behindRelay(300);
    const t = await createTestApp({ database: relay.database, start: false });
    try {
      const admin = await makeAdmin(t);
      await relay.proxy.blackhole();
      const started = Date.now();
      const answers = await Promise.all(
        ["/api/users", "/api/tickets", "/api/contacts", "/api/queue", "/api/whatsapp", "/api/quickAnswers"].map((url) =>
          t.app.inject({ method: "GET", url, headers: admin.auth }),
        ),
      );
      for (const res of answers) {
        expect(res.statusCode, `${res.raw.req.url}: ${res.body}`).toBe(503);
        expect(res.headers["retry-after"]).toBe("5");
        expectNoLeak(res.body);
      }
      // Bounded by the connect timeout (and the pool's wait for a free slot), never open-ended.
      expect(Date.now() - started).toBeLessThan(10_000);
      await relay.proxy.start();
      await vi.waitFor(
        async () => expect((await t.app.inject({ method: "GET", url: "/api/users", headers: admin.auth })).statusCode).toBe(200),
        {
          timeout: 10_000,
          interval: 100,
        },
      );
    } finally {
      await t.close();
      await relay.close();
    }
  });

  it("the connection dying inside a transaction: the process stays up, the next statement is an outage, the pool recovers", async () => {
    const relay = await behindRelay(300);
    try {
      const failure = await relay.database.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          // The transaction's own client: the one checked out of the pool.
          const pool = relay.pool as unknown as { _clients: pg.PoolClient[]; _idle: { client: pg.PoolClient }[] };
          const client = pool._clients.find((c) => !pool._idle.some((idle) => idle.client === c)) as pg.PoolClient;
          const ended = new Promise<void>((resolve) => client.once("end", () => resolve()));
          // The database goes away while this transaction is between two statements.
          await relay.proxy.stop();
          await ended;
          await tx.execute(sql`select 2`);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeDefined();
      expect(isDatabaseUnavailable(failure)).toBe(true);
      await relay.proxy.start();
      // No client is left behind holding a slot: the pool serves more statements than its size.
      for (let i = 0; i < 5; i++) expect(await relay.database.query<{ n: number }>("select 1 as n")).toEqual([{ n: 1 }]);
    } finally {
      await relay.close();
    }
  });
});
