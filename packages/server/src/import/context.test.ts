import { describe, expect, it } from "vitest";
import { mysqlReachable, mysqlSource, pgSource, type SourceDb } from "../../test/import-fixtures/sources.js";
import type { Database } from "../db/client.js";
import { createRun } from "./context.js";
import type { Row } from "./source.js";
import { openSource } from "./source.js";

const mysqlUp = await mysqlReachable();

/** Page a composite-key link table two rows at a time: every row once, in key order, on both dialects. */
async function pagesOf(src: SourceDb, messageKey: string[]) {
  const rows = [
    [2, 1],
    [1, 3],
    [1, 1],
    [3, 2],
    [2, 2],
    [1, 2],
    [3, 1],
  ].map(([userId, queueId]) => ({ userId, queueId, createdAt: new Date(), updatedAt: new Date() }));
  await src.insert("UserQueues", rows);
  const source = await openSource(src.url);
  try {
    const run = await createRun({ source, flavour: "community", database: {} as Database, batchSize: 2 }, undefined);
    expect(await run.keysOf("UserQueues", ["queueId"])).toEqual(["userId", "queueId"]);
    expect(await run.keysOf("Messages", ["ticketId", "id"])).toEqual(messageKey);
    const seen: Row[][] = [];
    await run.pages(
      "UserQueues",
      `${run.keySelect("UserQueues", ["userId", "queueId"])}, "userId", "queueId"`,
      ["userId", "queueId"],
      "1=1",
      async (page) => {
        seen.push(page);
      },
    );
    expect(seen.map((page) => page.length)).toEqual([2, 2, 2, 1]);
    expect(seen.flat().map((r) => `${r.userId}/${r.queueId}`)).toEqual(["1/1", "1/2", "1/3", "2/1", "2/2", "3/1", "3/2"]);
  } finally {
    await source.close();
  }
}

describe("keyset pages of a source table", () => {
  it.skipIf(!mysqlUp)("MariaDB (the expanded a > x or (a = x and b > y) form)", async () => {
    const src = await mysqlSource("community.mysql.sql");
    try {
      await pagesOf(src, ["id"]);
    } finally {
      await src.drop();
    }
  });

  it("PostgreSQL (a row comparison)", async () => {
    const src = await pgSource("ticketz.pg.sql");
    try {
      await pagesOf(src, ["id", "ticketId"]);
    } finally {
      await src.drop();
    }
  });
});
