import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, rowsOf } from "../../test/harness.js";
import { countedConnection } from "../../test/round-trips.js";
import type { Database } from "./client.js";
import { type PipelineStep, runPipelined, runReadsTogether } from "./pipeline.js";
import { namedStatement, runNamedTogether } from "./prepared.js";

/**
 * Issue 24: a transaction's statements that do not wait on each other go in one round trip
 * (pipeline.ts). Real PostgreSQL, a one-connection pool whose round trips (ReadyForQuery messages)
 * are counted, and a second pool looking from outside the transaction.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let one: Database;
let pool: pg.Pool;
let roundTrips: () => number;

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`create table t (n int primary key, at timestamptz, tags text[])`);
  await database.db.execute(sql`create table log (n int, seen bigint)`);
  // A statement trigger, as the messages' are: it sees what its own statement wrote, at its end.
  await database.db.execute(sql`create function log_t() returns trigger language plpgsql as $$
      begin insert into log select n, (select count(*) from t) from fresh; return null; end $$`);
  await database.db.execute(
    sql`create trigger t_log after insert on t referencing new table as fresh for each statement execute function log_t()`,
  );
  ({ one, pool, roundTrips } = await countedConnection(database.url));
});
afterAll(async () => {
  await one.close();
  await database.close();
  await database.drop();
});

const types = { getTypeParser: pg.types.getTypeParser } as pg.CustomTypesConfig;
const insert = (n: number, at: Date | null = null, tags: string[] | null = null): PipelineStep => ({
  name: "pipeline_insert",
  text: "insert into t (n, at, tags) values ($1, $2, $3) returning n, at, tags",
  values: [n, at, tags],
});
const count = (): PipelineStep => ({ name: "pipeline_count", text: "select count(*)::int as c from t", values: [] });
const touch = (n: number): PipelineStep => ({ name: "pipeline_touch", text: "update t set n = n where n = $1", values: [n] });
const outside = async () => rowsOf(await database.db.execute(sql`select n from t order by n`)).map((r) => r.n);
const logged = async () => rowsOf(await database.db.execute(sql`select n, seen from log order by n`));
const reset = () => database.db.execute(sql`truncate t, log`);

/**
 * `work` on the pool's one connection in a transaction; its result and the round trips it took,
 * counted once the commit or rollback after it has answered (an error is handed over before its
 * round trip's ReadyForQuery arrives).
 */
async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>) {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const before = roundTrips();
    const result = await work(client).catch((error: unknown) => error as Error);
    await client.query(result instanceof Error ? "rollback" : "commit");
    return { result, trips: roundTrips() - before - 1 };
  } finally {
    client.release();
  }
}

describe("statements pipelined in a transaction (pipeline.ts)", () => {
  it("runs parsed statements in one round trip, each with its own result, in order", async () => {
    await reset();
    // The first run parses them on the connection, one by one.
    const first = await inTransaction((c) => runPipelined(c, [insert(1), count(), touch(1)], types));
    expect(first.trips).toBe(3);
    const at = new Date("2026-12-07T10:00:00Z");
    const { result, trips } = await inTransaction((c) =>
      runPipelined(c, [insert(2, at, ["a", "b,c"]), count(), touch(2)], types),
    );
    expect(trips).toBe(1);
    expect(result).toEqual([[{ n: 2, at, tags: ["a", "b,c"] }], [{ c: 2 }], []]);
    expect(await outside()).toEqual([1, 2]);
    // The insert's trigger ran at the end of its own statement, before the count.
    expect(await logged()).toEqual([
      { n: 1, seen: "1" },
      { n: 2, seen: "2" },
    ]);
  });

  it("stops at a failing statement: the error, nothing after it, and the connection still in step", async () => {
    await reset();
    await inTransaction((c) => runPipelined(c, [insert(1), count()], types));
    // The second fails: one round trip (one by one, the first would have answered before it went).
    const failed = await inTransaction((c) => runPipelined(c, [insert(3), insert(1)], types));
    expect(failed.trips).toBe(1);
    expect((failed.result as pg.DatabaseError).code).toBe("23505");
    expect(await outside()).toEqual([1]);
    const second = await inTransaction((c) => runPipelined(c, [count(), insert(1)], types));
    expect((second.result as pg.DatabaseError).code).toBe("23505");
    // A value that cannot be sent is refused before anything is written.
    const unsendable = {
      toPostgres: () => {
        throw new Error("no wire form");
      },
    };
    const refused = await inTransaction((c) =>
      runPipelined(c, [count(), { ...insert(5), values: [unsendable, null, null] }], types),
    );
    expect((refused.result as Error).message).toBe("no wire form");
    expect(refused.trips).toBe(0);
    // The same connection answers its next statements in order.
    const after = await inTransaction((c) => runPipelined(c, [insert(4), count()], types));
    expect(after.result).toEqual([[{ n: 4, at: null, tags: null }], [{ c: 2 }]]);
    expect(await outside()).toEqual([1, 4]);
  });

  it("goes one by one outside a transaction and on the pool, with the same results", async () => {
    await reset();
    await inTransaction((c) => runPipelined(c, [insert(1), count()], types));
    const client = await pool.connect();
    try {
      const before = roundTrips();
      // Outside a transaction, one Sync would make the two one implicit transaction: not pipelined.
      expect(await runPipelined(client, [insert(2), count()], types)).toEqual([[{ n: 2, at: null, tags: null }], [{ c: 2 }]]);
      expect(roundTrips() - before).toBe(2);
      const failed = await runPipelined(client, [insert(3), insert(2)], types).catch((error: pg.DatabaseError) => error.code);
      expect(failed).toBe("23505");
    } finally {
      client.release();
    }
    // Statement by statement: the one before the failure stays.
    expect(await outside()).toEqual([1, 2, 3]);
    expect(await runPipelined(pool, [count(), count()], types)).toEqual([[{ c: 3 }], [{ c: 3 }]]);
  });
});

describe("reads together on the pool (runReadsTogether, opening a chat)", () => {
  const byN = (n: number): PipelineStep => ({ name: "pipeline_by_n", text: "select n, at from t where n = $1", values: [n] });

  it("runs parsed reads in one round trip on one pooled connection, rows as arrays, and gives it back", async () => {
    await reset();
    await inTransaction((c) => runPipelined(c, [insert(1), insert(2, new Date("2026-12-07T10:00:00Z"))], types));
    // The first time they are parsed on the connection, one by one.
    let before = roundTrips();
    expect(await runReadsTogether(pool, [count(), byN(2)], types)).toEqual([[[2]], [[2, new Date("2026-12-07T10:00:00Z")]]]);
    expect(roundTrips() - before).toBe(2);
    before = roundTrips();
    expect(await runReadsTogether(pool, [byN(1), count(), byN(9)], types)).toEqual([[[1, null]], [[2]], []]);
    expect(roundTrips() - before).toBe(1);
    // Given back: the one-connection pool hands it out again, outside any transaction.
    expect(pool.idleCount).toBe(1);
    const client = await pool.connect();
    try {
      expect(client.getTransactionStatus()).toBe("I");
    } finally {
      client.release();
    }
  });

  it("answers a failing read with its error and keeps the connection in step", async () => {
    await reset();
    await inTransaction((c) => runPipelined(c, [insert(1)], types));
    const bad: PipelineStep = { name: "pipeline_bad", text: "select 1 / $1::int as q", values: [1] };
    await runReadsTogether(pool, [count(), bad], types);
    const before = roundTrips();
    const failed = await runReadsTogether(pool, [count(), { ...bad, values: [0] }], types).catch(
      (error: pg.DatabaseError) => error.code,
    );
    expect(failed).toBe("22012");
    // Counted once the next read has answered (an error is handed over before its ReadyForQuery):
    // one round trip each, on the same connection.
    expect(await runReadsTogether(pool, [bad, count()], types)).toEqual([[[1]], [[1]]]);
    expect(roundTrips() - before).toBe(2);
    expect(pool.totalCount).toBe(1);
  });

  it("reads on a transaction's own connection, seeing what it wrote", async () => {
    await reset();
    await inTransaction((c) => runPipelined(c, [insert(1), count()], types));
    const { result, trips } = await inTransaction(async (c) => {
      await runPipelined(c, [insert(7), count()], types);
      return runReadsTogether(c, [byN(7), count()], types);
    });
    expect(result).toEqual([[[7, null]], [[2]]]);
    expect(trips).toBe(2);
    expect(await outside()).toEqual([1, 7]);
  });
});

describe("a pipeline that opens its transaction (BEGIN waiting for the first statement, begin-pipeline.ts)", () => {
  const insertNamed = namedStatement("pipeline_open_insert", sql`insert into t (n) values (${sql.placeholder("n")}) returning n`);
  const countNamed = namedStatement("pipeline_open_count", sql`select count(*)::int as c from t`);
  const steps = (n: number): Parameters<typeof runNamedTogether>[1] => [
    [insertNamed, { n }],
    [countNamed, {}],
  ];
  const tripsOf = async (work: () => Promise<unknown>) => {
    const before = roundTrips();
    const result = await work().catch((error: unknown) => error as Error);
    return { result, trips: roundTrips() - before };
  };

  it("sends BEGIN as its first step: the statements and BEGIN in one round trip, then the commit", async () => {
    await reset();
    // The connection's first transactions prepare BEGIN and then the statements, one by one.
    await one.db.transaction((tx) => runNamedTogether(tx, steps(1)));
    await one.db.transaction((tx) => runNamedTogether(tx, steps(2)));
    const { result, trips } = await tripsOf(() => one.db.transaction((tx) => runNamedTogether(tx, steps(3))));
    expect(trips).toBe(2);
    expect(result).toEqual([[{ n: 3 }], [{ c: 3 }]]);
    expect(await outside()).toEqual([1, 2, 3]);
    expect((await logged()).map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it("is a transaction: what it wrote goes with a rollback, and a failing statement rolls back the rest", async () => {
    await reset();
    await one.db.transaction((tx) => runNamedTogether(tx, steps(1)));
    await one.db.transaction((tx) => runNamedTogether(tx, steps(2)));
    // An error after the pipeline: without BEGIN the Sync would have committed the insert already.
    const thrown = await tripsOf(() =>
      one.db.transaction(async (tx) => {
        const [[inserted]] = await runNamedTogether(tx, steps(5));
        expect(inserted).toEqual({ n: 5 });
        throw new Error("roll back");
      }),
    );
    expect((thrown.result as Error).message).toBe("roll back");
    expect(thrown.trips).toBe(2);
    // The insert fails (a duplicate): nothing after it runs, and the rollback leaves nothing.
    const failed = await tripsOf(() =>
      one.db.transaction((tx) =>
        runNamedTogether(tx, [
          [insertNamed, { n: 6 }],
          [insertNamed, { n: 1 }],
          [countNamed, {}],
        ]),
      ),
    );
    expect((failed.result as pg.DatabaseError).code).toBe("23505");
    expect(failed.trips).toBe(2);
    expect(await outside()).toEqual([1, 2]);
    // The connection is in step for the next transaction.
    const next = await tripsOf(() => one.db.transaction((tx) => runNamedTogether(tx, steps(7))));
    expect(next).toEqual({ result: [[{ n: 7 }], [{ c: 3 }]], trips: 2 });
  });
});
