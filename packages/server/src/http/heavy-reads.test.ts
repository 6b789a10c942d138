import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { customerNumber, customerWrites, makeSimulatorConnection } from "../../test/conversation.js";
import { makeAdmin, makeUser, type TestUser } from "../../test/factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../../test/harness.js";
import { HEAVY_READ_APPLICATION, openDatabase } from "../db/client.js";

/**
 * Issue 19: one agent's broad search must not hold anyone else up, nor take more than one heavy
 * query of its own, nor run for ever. The search is held in flight by a lock on the messages table
 * (which the inbox never reads), so what runs meanwhile is seen, not guessed from timings.
 */
const TIMEOUT_MS = 6000;
let server: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  server = await openTestDatabase();
  const database = await openDatabase({ url: server.url, poolSize: 5, heavyReads: { timeoutMs: TIMEOUT_MS } });
  t = await createTestApp({ database });
  admin = await makeAdmin(t);
  agent = await makeUser(t);
  const connection = await makeSimulatorConnection(t, admin);
  for (let i = 0; i < 5; i++)
    await customerWrites(t, admin, connection.id, { from: customerNumber(), body: `pedido número ${i}` });
});
afterAll(async () => {
  await t?.close();
  await t?.database.close();
  await server?.close();
  await server?.drop();
});

const get = (user: TestUser, url: string, query: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers: user.auth, query });

/** Hold the messages table: every search waits on it; the inbox lists do not read it. */
async function lockMessages(): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  await client.query("begin");
  await client.query("lock table messages in access exclusive mode");
  return {
    async release() {
      await client.query("rollback");
      await client.end();
    },
  };
}

const heavyQueries = async () =>
  (
    await t.database.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where application_name = $1 and state = 'active' and datname = current_database()",
      [HEAVY_READ_APPLICATION],
    )
  )[0]!.n;

describe("heavy reads: searches and dashboards", () => {
  it("refuse a search of one character with ERR_SEARCH_TOO_SHORT; two are enough", async () => {
    for (const [url, query] of [
      ["/api/tickets", { searchParam: "a", showAll: "true" }],
      ["/api/tickets", { searchParam: "  é  " }],
      ["/api/contacts", { searchParam: "5" }],
    ] as const) {
      const res = await get(admin, url, query);
      expect(res.statusCode, `${url} ${JSON.stringify(query)}`).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_SEARCH_TOO_SHORT" });
    }
    expect((await get(admin, "/api/tickets", { searchParam: "pe", showAll: "true" })).statusCode).toBe(200);
    expect((await get(admin, "/api/contacts", { searchParam: "55" })).statusCode).toBe(200);
    expect((await get(admin, "/api/tickets", { searchParam: "" })).statusCode).toBe(200);
  });

  it("one agent's searches run one at a time while another agent's inbox and the health check answer", async () => {
    const lock = await lockMessages();
    let settled = 0;
    const searches = ["pe", "ped", "pedi"].map((searchParam) =>
      get(admin, "/api/tickets", { searchParam, showAll: "true" }).finally(() => {
        settled += 1;
      }),
    );
    try {
      await vi.waitFor(async () => expect(await heavyQueries()).toBe(1), { timeout: 10_000 });
      // The other agent works: the inbox and the waiting list, the health check, all while the search is in flight.
      for (const status of ["open", "pending"]) {
        const inbox = await get(agent, "/api/tickets", { status });
        expect(inbox.statusCode).toBe(200);
      }
      expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
      expect(settled).toBe(0);
      // The admin's two other searches wait in line, not on the database; the agent's own search runs beside.
      expect(await heavyQueries()).toBe(1);
      const agentSearch = get(agent, "/api/tickets", { searchParam: "pedido" });
      await vi.waitFor(async () => expect(await heavyQueries()).toBe(2), { timeout: 10_000 });
      await lock.release();
      expect((await agentSearch).statusCode).toBe(200);
    } catch (error) {
      await lock.release().catch(() => {});
      throw error;
    }
    const answers = await Promise.all(searches);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers[2]!.json().count).toBe(5);
  }, 60_000);

  it("stop a search past the statement_timeout with ERR_QUERY_TIMEOUT; the plain lists have none", async () => {
    const lock = await lockMessages();
    try {
      const started = Date.now();
      const res = await get(admin, "/api/tickets", { searchParam: "pedido", showAll: "true" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: "ERR_QUERY_TIMEOUT" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
      expect((await get(agent, "/api/tickets", { status: "pending" })).statusCode).toBe(200);
    } finally {
      await lock.release();
    }
    expect((await get(admin, "/api/tickets", { searchParam: "pedido", showAll: "true" })).statusCode).toBe(200);
  }, 60_000);
});
