import { describe, expect, it } from "vitest";
import { BATCH_MESSAGE_COLUMNS } from "./inbound-batch-sql.js";
import { type Ingest, messageValues } from "./inbound-store.js";

// The batch's message insert names its columns once (issue 24: one SQL text whatever the batch's
// size), while the one-message road inserts whatever `messageValues` gives: a column added there and
// not to the batch's list would be stored by one road and silently dropped by the other.
describe("the inbound batch's message insert", () => {
  it("writes every column of an inbound item's message row", () => {
    const item = { wid: "W1", chat: "5511999990000", body: "oi", fromMe: false, type: "chat", timestamp: new Date() };
    const row = messageValues(1, 2, 3, item as unknown as Ingest, 4);
    expect(Object.keys(row).sort()).toEqual([...BATCH_MESSAGE_COLUMNS].sort());
  });
});
