import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeContact } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { type Database, openDatabase } from "../../db/client.js";
import { contactSearchSql, listContacts } from "./contacts.repo.js";

// Issue 10 item 3: the contact search is one predicate its own trigram index answers, whatever the size.
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ start: false });
});
afterAll(() => t.close());

/** One connection, so a session setting applies to the EXPLAIN that follows. */
async function withOneConnection<T>(run: (database: Database) => Promise<T>): Promise<T> {
  const url = (t.database as { url?: string }).url;
  if (!url) return run(t.database);
  const single = await openDatabase({ url, poolSize: 1 });
  try {
    return await run(single);
  } finally {
    await single.close();
  }
}

describe("contact search", () => {
  it("matches any part of the name, whatever the case, or of the number, and nothing across the two", async () => {
    const tag = `Qz${Math.random().toString(36).slice(2, 8)}`;
    const contact = await makeContact(t, { name: `Ana ${tag} Silva`, number: "5511987650001" });
    const ids = async (search: string) =>
      (await listContacts(t.database.db, { search, limit: 20, offset: 0 })).rows.map((r) => r.id);
    expect(await ids(tag.toUpperCase())).toEqual([contact.id]);
    expect(await ids(`${tag.toLowerCase()} sil`)).toEqual([contact.id]);
    expect(await ids("987650001")).toContain(contact.id);
    expect(await ids(`${tag} Silva5511`)).toEqual([]);
    expect(await ids(`${tag}%`)).toEqual([]);
  });

  it("lets the planner answer the page and the count from contacts_search_trgm", async () => {
    const plans = await withOneConnection(async (database) => {
      // Tiny tables make any scan cheap: forbid the sequential one to see what the index can answer.
      await database.exec("set enable_seqscan = off");
      const statements = contactSearchSql(database.db, "silva");
      const explain = async (s: { sql: string; params: unknown[] }) =>
        (await database.query<{ "QUERY PLAN": string }>(`explain ${s.sql}`, s.params)).map((r) => r["QUERY PLAN"]).join("\n");
      const result = { count: await explain(statements.count) };
      await database.exec("reset enable_seqscan");
      return result;
    });
    expect(plans.count).toContain("contacts_search_trgm");
  });
});
