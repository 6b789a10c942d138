import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, rowsOf } from "../../test/harness.js";
import { countedConnection } from "../../test/round-trips.js";
import type { Database } from "./client.js";

/**
 * Issue 24: BEGIN goes with a transaction's first statement (begin-pipeline.ts). Real PostgreSQL, a
 * one-connection pool whose round trips (ReadyForQuery messages) are counted, and a second pool
 * looking from outside the transaction.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let one: Database;
let roundTrips: () => number;

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`create table t (n int primary key)`);
  ({ one, roundTrips } = await countedConnection(database.url));
});
afterAll(async () => {
  await one.close();
  await database.close();
  await database.drop();
});

async function tripsOf(work: () => Promise<unknown>) {
  const before = roundTrips();
  await work().catch(() => {});
  return roundTrips() - before;
}

const outside = async () => rowsOf(await database.db.execute(sql`select n from t order by n`)).map((r) => r.n);
const clear = () => database.db.execute(sql`delete from t`);

describe("a transaction's BEGIN", () => {
  it("rides with a first statement that has parameters: one round trip fewer once BEGIN is prepared", async () => {
    await clear();
    // The connection's first transaction prepares BEGIN on its own: begin, insert, commit.
    expect(await tripsOf(() => one.db.transaction((tx) => tx.execute(sql`insert into t values (${1})`)))).toBe(3);
    // Then: the insert with BEGIN, commit.
    expect(await tripsOf(() => one.db.transaction((tx) => tx.execute(sql`insert into t values (${2})`)))).toBe(2);
    const read = await tripsOf(() =>
      one.db.transaction(async (tx) => {
        expect(rowsOf(await tx.execute(sql`select count(*)::int as c from t where n > ${0}`))).toEqual([{ c: 2 }]);
      }),
    );
    expect(read).toBe(2);
    expect(await outside()).toEqual([1, 2]);
  });

  it("opens a real transaction: its first statement's write is unseen outside until commit", async () => {
    await clear();
    await one.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (${10})`);
      expect(await outside()).toEqual([]);
      await tx.execute(sql`insert into t values (${11})`);
    });
    expect(await outside()).toEqual([10, 11]);
  });

  it("rolls back the first statement's write when the work fails later", async () => {
    await clear();
    await expect(
      one.db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values (${20})`);
        throw new Error("the work failed");
      }),
    ).rejects.toThrow("the work failed");
    expect(await outside()).toEqual([]);
  });

  it("rolls back when the first statement itself fails, and the connection serves the next transaction", async () => {
    await clear();
    await database.db.execute(sql`insert into t values (30)`);
    await expect(one.db.transaction((tx) => tx.execute(sql`insert into t values (${30})`))).rejects.toMatchObject({
      cause: { code: "23505" },
    });
    const after = await one.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (${31})`);
      return rowsOf(await tx.execute(sql`select count(*)::int as c from t`));
    });
    expect(after).toEqual([{ c: 2 }]);
    // Outside any transaction again: a statement on the pool's one connection autocommits.
    await one.db.execute(sql`insert into t values (${32})`);
    expect(await outside()).toEqual([30, 31, 32]);
  });

  it("goes on its own before a first statement without parameters, which may hold several", async () => {
    await clear();
    await expect(
      one.db.transaction(async (tx) => {
        await tx.execute(sql.raw("insert into t values (40); insert into t values (41)"));
        expect(await outside()).toEqual([]);
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await outside()).toEqual([]);
  });

  it("is not sent for a transaction that sends no statement, nor is COMMIT", async () => {
    expect(await tripsOf(() => one.db.transaction(async () => "nothing"))).toBe(0);
    expect(
      await tripsOf(() =>
        one.db.transaction(async () => {
          throw new Error("before any statement");
        }),
      ),
    ).toBe(0);
  });

  it("holds first statements sent together, in the order sent", async () => {
    await clear();
    await expect(
      one.db.transaction(async (tx) => {
        await Promise.all([tx.execute(sql`insert into t values (${50})`), tx.execute(sql`insert into t values (${51})`)]);
        expect(rowsOf(await tx.execute(sql`select n from t order by n`)).map((r) => r.n)).toEqual([50, 51]);
        throw new Error("undo both");
      }),
    ).rejects.toThrow("undo both");
    expect(await outside()).toEqual([]);
  });
});
