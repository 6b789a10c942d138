import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { contacts, ruleRuns, tickets } from "../../db/schema.js";
import { anonymiseContactRows } from "./anonymise.repo.js";

// Issues 22 and 23 §1: the automation rules' log quotes the message that fired a rule; an erasure
// and a retention policy's anonymisation take it away with the rest of what names the person.
let t: TestApp;
let admin: TestUser;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  connectionId = (await makeSimulatorConnection(t, admin, {})).id;
  const res = await t.app.inject({
    method: "POST",
    url: "/api/automation-rules",
    headers: admin.auth,
    payload: {
      name: "Note every message",
      enabled: true,
      trigger: "messageReceived",
      actions: [{ type: "addNote", body: "visto" }],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t.close());

/** A customer writes; once the rule fired, their contact and tickets. */
async function customerWithLog(body: string) {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body });
  await t.ruleWorker.drain();
  const [contact] = await t.database.db.select().from(contacts).where(eq(contacts.number, from));
  const ticketIds = (await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.contactId, contact.id))).map(
    (r) => r.id,
  );
  const logged = await eventually(async () => {
    const runs = await t.database.db.select().from(ruleRuns).where(inArray(ruleRuns.ticketId, ticketIds));
    expect(runs.length).toBeGreaterThan(0);
    return runs;
  });
  expect(JSON.stringify(logged.map((r) => r.event))).toContain(body);
  return { from, contact, ticketIds };
}

const logOf = (ticketIds: number[]) => t.database.db.select().from(ruleRuns).where(inArray(ruleRuns.ticketId, ticketIds));

describe("the automation rules' log of a person", () => {
  it("goes with an erasure", async () => {
    const { from, contact, ticketIds } = await customerWithLog("meu CPF é 123.456.789-00");
    const res = await t.app.inject({
      method: "POST",
      url: `/api/contacts/${contact.id}/data/erase`,
      headers: admin.auth,
      payload: { confirm: from },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await logOf(ticketIds)).toEqual([]);
  });

  it("goes with an anonymisation, which keeps the tickets", async () => {
    const { contact, ticketIds } = await customerWithLog("moro na rua das Flores, 12");
    await t.database.db.transaction((tx) => anonymiseContactRows(tx, contact, ticketIds));
    expect(await t.database.db.select().from(tickets).where(inArray(tickets.id, ticketIds))).toHaveLength(ticketIds.length);
    expect(await logOf(ticketIds)).toEqual([]);
  });
});
