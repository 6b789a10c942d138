import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openTestDatabase, rowsOf } from "../../test/harness.js";
import { openDatabase } from "./client.js";

/**
 * A client whose connection died while it sat idle in the pool (an outage, a restart of
 * PostgreSQL) fails at BEGIN. drizzle 0.45 then never gave it back, so a pool lost a slot per
 * failure until every request waited forever. Here the socket is cut the moment a client is
 * taken from a one-connection pool, with real pg and a real server.
 */
describe("a transaction whose BEGIN fails", () => {
  it("gives its connection back, so the pool keeps serving and can be closed", async () => {
    const database = await openTestDatabase();
    const one = await openDatabase({ url: database.url, poolSize: 1, connectTimeoutMs: 2000 });
    try {
      const pool = (one.db as unknown as { $client: import("pg").Pool }).$client;
      await one.db.execute(sql`select 1`);
      let cut = true;
      pool.on("acquire", (client) => {
        if (!cut) return;
        cut = false;
        (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      });
      await expect(one.db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();
      // The dead client left the pool: the next transaction gets a fresh connection at once.
      const result = await Promise.race([
        one.db.transaction(async (tx) => rowsOf(await tx.execute(sql`select 42 as answer`))[0]),
        new Promise((_, reject) => setTimeout(() => reject(new Error("the pool is exhausted")), 5000)),
      ]);
      expect(result).toEqual({ answer: 42 });
      expect(pool.totalCount).toBe(1);
    } finally {
      await one.close();
      await database.close();
      await database.drop();
    }
  });

  it("reports the error that failed the transaction, not the failed ROLLBACK's, and discards the client", async () => {
    const database = await openTestDatabase();
    const one = await openDatabase({ url: database.url, poolSize: 1, connectTimeoutMs: 2000 });
    try {
      const pool = (one.db as unknown as { $client: import("pg").Pool }).$client;
      const failure = one.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        // The connection dies inside the transaction, then the work fails: ROLLBACK cannot be sent.
        const client = (tx as unknown as { session: { client: { connection: { stream: { destroy(): void } } } } }).session.client;
        client.connection.stream.destroy();
        throw new Error("the work failed");
      });
      await expect(failure).rejects.toThrow("the work failed");
      const answer = await one.db.transaction(async (tx) => rowsOf(await tx.execute(sql`select 7 as n`))[0]);
      expect(answer).toEqual({ n: 7 });
      expect(pool.totalCount).toBe(1);
    } finally {
      await one.close();
      await database.close();
      await database.drop();
    }
  });

  it("commits and rolls back as before", async () => {
    const database = await openTestDatabase();
    try {
      await database.db.execute(sql`create table t (n int)`);
      await database.db.transaction(async (tx) => tx.execute(sql`insert into t values (1)`));
      await expect(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into t values (2)`);
          throw new Error("no");
        }),
      ).rejects.toThrow("no");
      await database.db.transaction(
        async (tx) => {
          await tx.execute(sql`insert into t values (3)`);
        },
        { isolationLevel: "serializable" },
      );
      expect(rowsOf(await database.db.execute(sql`select n from t order by n`))).toEqual([{ n: 1 }, { n: 3 }]);
    } finally {
      await database.close();
      await database.drop();
    }
  });
});
