import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/conversation.js";
import { createTestApp, openTestDatabase, type TestApp } from "../../../test/harness.js";
import type { Database } from "../../db/client.js";

/** How many backends of this database are in pg_sleep (asked over the heavy-read pool, which the sleeps leave free). */
async function openSleeps(database: Database): Promise<number> {
  const rows = await database.heavy.execute(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query like 'select pg_sleep%'`,
  );
  return (rows as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

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

  it("answers while every connection of the main pool is busy (its own connection; issue 19)", async () => {
    const database = await openTestDatabase();
    const busy = await createTestApp({ database, start: false });
    try {
      // The test database's main pool has 5 connections: hold them all in pg_sleep.
      let slept = false;
      const sleeps = Promise.allSettled(Array.from({ length: 5 }, () => database.query("select pg_sleep(30)"))).then(() => {
        slept = true;
      });
      await eventually(async () => expect(await openSleeps(database)).toBe(5), 20_000);
      const res = await busy.app.inject({ method: "GET", url: "/api/health" });
      expect(res.statusCode).toBe(200);
      // Answered over its own connection, not after a sleep gave one of the pool's back.
      expect(slept).toBe(false);
      await database.heavy.execute(
        sql`select pg_cancel_backend(pid) from pg_stat_activity where datname = current_database() and query like 'select pg_sleep%'`,
      );
      await sleeps;
    } finally {
      await busy.close();
      await database.close();
      await database.drop();
    }
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
