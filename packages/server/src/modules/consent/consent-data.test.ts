import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { readZip } from "../../../test/zip-reader.js";
import { consentRecords, contacts } from "../../db/schema.js";

// Issue 22 §3: what an export and an erasure do with a contact's consent records (consent.test.ts
// has the words, the question and their configuration).
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

async function contactIdOf(number: string): Promise<number> {
  const [row] = await t.database.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.number, number));
  return row.id;
}

describe("a contact's consent records and their data", () => {
  it("are in the contact's export, and an erasure deletes them", async () => {
    const connection = await makeSimulatorConnection(t, admin, {});
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, name: "Rita", body: "oi" });
    const wid = await customerWrites(t, admin, connection.id, { from, name: "Rita", body: "STOP" });
    await customerWrites(t, admin, connection.id, { from, name: "Rita", body: "voltei" });
    const contactId = await contactIdOf(from);

    const res = await t.app.inject({ method: "GET", url: `/api/contacts/${contactId}/data/export`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    const data = JSON.parse(readZip(res.rawPayload).get("data.json")?.toString() ?? "") as {
      consent: { kind: string; at: string; connection: string; whatsappMessageId: string; text: string }[];
    };
    expect(data.consent.map((r) => r.kind)).toEqual(["opted_out", "opted_in"]);
    expect(data.consent[0]).toMatchObject({ connection: connection.name, whatsappMessageId: wid, text: "STOP" });

    const erased = await t.app.inject({
      method: "POST",
      url: `/api/contacts/${contactId}/data/erase`,
      headers: admin.auth,
      payload: { confirm: from },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await t.database.db.select().from(consentRecords).where(eq(consentRecords.contactId, contactId))).toEqual([]);
  });
});
