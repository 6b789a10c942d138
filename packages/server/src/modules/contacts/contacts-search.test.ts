import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeContact } from "../../../test/factories.js";
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

  it("pages the matches in name order from the one statement, each with its tags and owner", async () => {
    // Issue 24: below the count's cap, the page is sorted from the matches the count read.
    const word = `Pg${Math.random().toString(36).slice(2, 8)}`;
    const made = [];
    for (let i = 0; i < 45; i++) {
      const letter = String.fromCharCode(65 + ((i * 7) % 26));
      made.push(await makeContact(t, { name: `${i % 2 ? letter : letter.toLowerCase()}${word} ${i % 4}` }));
    }
    const owner = await makeAdmin(t);
    const rowsOf = async (query: ReturnType<typeof sql>) =>
      ((await t.database.db.execute(query)) as unknown as { rows: { id: number; name: string; color: string }[] }).rows;
    const tagRows = await rowsOf(
      sql`insert into tags (name, color) values (${`b ${word}`}, '#112233'), (${`A ${word}`}, '#445566') returning id, name, color`,
    );
    await t.database.db.execute(
      sql`insert into contact_tags (contact_id, tag_id) select ${made[3].id}, id from tags where name like ${`% ${word}`}`,
    );
    await t.database.db.execute(sql`update contacts set owner_user_id = ${owner.id} where id = ${made[5].id}`);
    const key = (c: { name: string }) => c.name.toLowerCase();
    const expected = [...made].sort((a, b) => (key(a) === key(b) ? a.id - b.id : key(a) < key(b) ? -1 : 1)).map((c) => c.id);
    const listed = [];
    for (const offset of [0, 20, 40, 60]) {
      const page = await listContacts(t.database.db, { search: word, limit: 20, offset });
      expect(page).toMatchObject({ count: 45, countCapped: false });
      listed.push(...page.rows);
    }
    expect(listed.map((r) => r.id)).toEqual(expected);
    const byId = new Map(listed.map((r) => [r.id, r]));
    // Tags in the order the contact's detail shows them (by lowercased name), the owner by name.
    expect(byId.get(made[3].id)?.tagList).toEqual([tagRows[1], tagRows[0]]);
    expect(byId.get(made[5].id)?.owner).toEqual({ id: owner.id, name: owner.name });
    expect(byId.get(made[0].id)).toMatchObject({ tagList: [], owner: null });
  });

  it("lets the planner answer the page and the count from contacts_search_trgm", async () => {
    const plans = await withOneConnection(async (database) => {
      // Tiny tables make any scan cheap: forbid the sequential one to see what the index can answer.
      await database.exec("set enable_seqscan = off");
      const statements = contactSearchSql(database.db, "silva");
      const explain = async (s: { sql: string; params: unknown[] }) =>
        (await database.query<{ "QUERY PLAN": string }>(`explain ${s.sql}`, s.params)).map((r) => r["QUERY PLAN"]).join("\n");
      // The search's statement counts the matches (its count and page in one, contacts.repo.ts).
      const result = { count: await explain(statements.search) };
      await database.exec("reset enable_seqscan");
      return result;
    });
    expect(plans.count).toContain("contacts_search_trgm");
  });
});
