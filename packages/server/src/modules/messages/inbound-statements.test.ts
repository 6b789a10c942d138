import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { countStatements, statementsOf } from "../../../test/statements.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  countStatements();
});
afterAll(() => t.close());

describe("a lone inbound message", () => {
  it("probe", async () => {
    const queue = await makeQueue(t);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    await customerWrites(t, admin, connection.id, { from: customerNumber(), body: "warm up" });
    const { statements } = await statementsOf(() =>
      customerWrites(t, admin, connection.id, { from: customerNumber(), body: "hello" }),
    );
    console.log(statements.join("\n---\n"));
    const again = await statementsOf(() => customerWrites(t, admin, connection.id, { from: customerNumber(), body: "hello" }));
    console.log(again.statements.length);
    expect(statements.length).toBeGreaterThan(0);
  });
});
