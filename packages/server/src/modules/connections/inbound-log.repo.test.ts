import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertConnection } from "../../../test/channel-support.js";
import { openTestDatabase } from "../../../test/harness.js";
import { MAX_ATTEMPTS } from "../../channels/inbound-log.js";
import { inboundEvents } from "../../db/schema.js";
import { claimStale, createInboundLog, inboundLag, purgeProcessed } from "./inbound-log.repo.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

describe("the durable inbound log", () => {
  it("records once per key, keeps JSON with NUL characters, and lists what is pending in arrival order", async () => {
    const id = await insertConnection(database.db, "baileys");
    const log = createInboundLog(database.db, id);
    const first = await log.record("baileys.message", "msg:A", { text: "a\u0000b", n: 1 });
    expect(first).toBeTypeOf("number");
    expect(await log.record("baileys.message", "msg:A", { text: "again" })).toBeUndefined();
    const keyless = [await log.record("baileys.update", null, { n: 2 }), await log.record("baileys.update", null, { n: 2 })];
    expect(keyless.every((x) => typeof x === "number")).toBe(true);
    const pending = await log.pending();
    expect(pending.map((e) => e.id)).toEqual([first, ...keyless]);
    expect(pending[0].payload).toEqual({ text: "a\ufffdb", n: 1 });
    expect(await inboundLag(database.db, id)).toMatchObject({ pending: 3 });

    await log.done(first!);
    expect((await log.pending()).map((e) => e.id)).toEqual(keyless);
    // Another connection's log is its own.
    const other = createInboundLog(database.db, await insertConnection(database.db, "baileys"));
    expect(await other.pending()).toEqual([]);
    expect(await other.record("baileys.message", "msg:A", {})).toBeTypeOf("number");
  });

  it("records events received together in one statement, one id each in order, none for a key already logged or repeated", async () => {
    const id = await insertConnection(database.db, "baileys");
    const log = createInboundLog(database.db, id);
    const before = await log.record("baileys.message", "msg:B", { n: 0 });
    const ids = await log.recordAll("baileys.message", [
      { key: "msg:A", payload: { n: 1 } },
      { key: "msg:B", payload: { n: 2 } },
      { key: "msg:C", payload: { text: "c\u0000" } },
      { key: "msg:A", payload: { n: 3 } },
    ]);
    expect(ids[1]).toBeUndefined();
    expect(ids[3]).toBeUndefined();
    const rows = await database.db
      .select({ id: inboundEvents.id, key: inboundEvents.eventKey, tx: sql<string>`${inboundEvents}.xmin::text` })
      .from(inboundEvents)
      .where(eq(inboundEvents.whatsappId, id))
      .orderBy(inboundEvents.id);
    expect(rows.map((r) => [r.id, r.key])).toEqual([
      [before, "msg:B"],
      [ids[0], "msg:A"],
      [ids[2], "msg:C"],
    ]);
    // One statement (one transaction) for the whole list.
    expect(rows[1].tx).toBe(rows[2].tx);
    expect((await log.pending()).find((e) => e.id === ids[2])?.payload).toEqual({ text: "c\ufffd" });

    await log.doneAll([ids[0] as number, ids[2] as number]);
    expect((await log.pending()).map((e) => e.id)).toEqual([before]);
    expect(await log.recordAll("baileys.message", [])).toEqual([]);
  });

  it("sets an event aside after repeated failures instead of replaying it forever", async () => {
    const id = await insertConnection(database.db, "baileys");
    const log = createInboundLog(database.db, id);
    const event = (await log.record("baileys.message", "msg:BAD", {}))!;
    const fresh = (await log.record("baileys.message", "msg:FRESH", {}))!;
    // A second chance goes to events that failed, never to one still waiting its first turn.
    expect(await log.pending(undefined, { retriesOnly: true })).toEqual([]);
    for (let i = 0; i < MAX_ATTEMPTS - 1; i++) await log.failed(event, new Error("pipeline down"));
    expect((await log.pending(undefined, { retriesOnly: true })).map((e) => e.id)).toEqual([event]);
    await log.done(fresh);
    expect((await log.pending()).map((e) => e.attempts)).toEqual([MAX_ATTEMPTS - 1]);
    await log.failed(event, new Error("pipeline down"));
    expect(await log.pending()).toEqual([]);
    const [row] = await database.db.select().from(inboundEvents).where(eq(inboundEvents.id, event));
    expect(row).toMatchObject({ status: "failed", lastError: "pipeline down", attempts: MAX_ATTEMPTS });
  });

  it("hands stale events to one claimant at a time, and purges done ones after a day", async () => {
    const id = await insertConnection(database.db, "cloud");
    const log = createInboundLog(database.db, id);
    const ids = [] as number[];
    for (let i = 0; i < 4; i++) ids.push((await log.record("cloud.webhook", `body-${i}`, { i }))!);
    await log.record("baileys.message", "msg:other-kind", {});
    const options = { olderThanMs: 0, leaseMs: 60_000, limit: 10 };
    const [a, b] = await Promise.all([
      claimStale(database.db, "cloud.webhook", options),
      claimStale(database.db, "cloud.webhook", options),
    ]);
    const claimed = [...a, ...b].map((e) => e.id).sort((x, y) => x - y);
    expect(claimed.filter((x) => ids.includes(x))).toEqual(ids);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect([...a, ...b].every((e) => e.kind === "cloud.webhook" && e.whatsappId === id)).toBe(true);
    // Still leased: nobody else gets them.
    expect(await claimStale(database.db, "cloud.webhook", options)).toEqual([]);
    // Too recent for the sweeper: the process that received them is still at work.
    await log.record("cloud.webhook", "fresh", {});
    expect(await claimStale(database.db, "cloud.webhook", { ...options, olderThanMs: 60_000 })).toEqual([]);

    for (const event of ids) await log.done(event);
    await purgeProcessed(database.db, new Date(Date.now() + 25 * 60 * 60 * 1000));
    const left = await database.db.select().from(inboundEvents).where(eq(inboundEvents.whatsappId, id));
    expect(left.map((r) => r.status).sort()).toEqual(["pending", "pending"]);
  });
});
