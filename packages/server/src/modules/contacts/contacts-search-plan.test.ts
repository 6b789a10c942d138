import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../test/harness.js";
import { searchPage } from "../tickets/ticket-list.repo.js";
import { contactSearchSql } from "./contacts.repo.js";

// Issue 24 item 3: the contact search and the contacts leg of the ticket search keep their index
// plan however many contacts arrived since the last ANALYZE (migration 0040).
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
  // The test decides when statistics are gathered: autovacuum must not refresh them behind it.
  await database.exec("alter table contacts set (autovacuum_enabled = false)");
  await database.exec("alter table tickets set (autovacuum_enabled = false)");
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

const SURNAMES = ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes"];

/**
 * `count` contacts "Name<i> Surname" (one in ten a Silva), numbers 55 + 11 digits, after the first
 * `from`; each with three closed tickets, as the ticket search meets them.
 */
async function addContacts(from: number, count: number) {
  await database.exec(`insert into contacts (name, number)
    select 'Name' || i || ' ' || (array['${SURNAMES.join("','")}'])[1 + i % ${SURNAMES.length}], '55' || lpad(i::text, 11, '0')
    from generate_series(${from + 1}, ${from + count}) i`);
  await database.exec(`insert into tickets (status, contact_id)
    select 'closed', c.id from contacts c cross join generate_series(1, 3)
    where c.number > '55' || lpad('${from}', 11, '0')`);
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** How the chosen plan (EXPLAIN (FORMAT JSON), no ANALYZE) reads the contacts table: one entry per node. */
async function contactAccess(statement: { sql: string; params: unknown[] }): Promise<string[]> {
  const [row] = await database.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `explain (format json) ${statement.sql}`,
    statement.params,
  );
  const found: string[] = [];
  const walk = (node: PlanNode, parent?: PlanNode) => {
    if (node["Relation Name"] === "contacts") found.push(`${node["Node Type"]} ${node["Index Name"] ?? ""}`.trim());
    // A bitmap heap scan names its table; the index is on its child.
    if (node["Node Type"] === "Bitmap Index Scan" && parent?.["Relation Name"] === "contacts")
      found.push(`Bitmap Index Scan ${node["Index Name"]}`);
    for (const child of node.Plans ?? []) walk(child, node);
  };
  walk(row["QUERY PLAN"][0].Plan);
  return found;
}

/**
 * The statements the server runs for a search of `term`: the contact list's search (count and page
 * in one), its page past the count's cap, the ticket search.
 */
function searches(term: string) {
  const contactList = contactSearchSql(database.db, term);
  const actor = { id: 1, admin: true, queueIds: [] };
  const ticketSearch = searchPage(database.db, { actor, showAll: true, search: term }, { limit: 40, offset: 0 }).toSQL();
  return {
    "contacts search": contactList.search,
    "contacts page": contactList.page,
    "ticket search": ticketSearch,
  };
}

async function expectIndexPlans(term: string) {
  const plans: Record<string, string[]> = {};
  for (const [name, statement] of Object.entries(searches(term))) plans[name] = await contactAccess(statement);
  for (const access of Object.values(plans)) {
    expect(access.length).toBeGreaterThan(0);
    expect(access.filter((a) => a.startsWith("Seq Scan"))).toEqual([]);
  }
  // The search counts its matches (up to the cap) from the trigram index.
  expect(plans["contacts search"]).toContain("Bitmap Index Scan contacts_search_trgm");
  expect(plans["ticket search"]).toContain("Bitmap Index Scan contacts_search_trgm");
  return plans;
}

describe("contact search plans without fresh statistics", () => {
  it("use the trigram index on a table never analyzed, and after a burst of new contacts since the last ANALYZE", async () => {
    // Never analyzed: 6,000 contacts from an import.
    await addContacts(0, 6_000);
    await expectIndexPlans("silva");
    await expectIndexPlans("5500000004");
    // Analyzed small, then a burst of 8,000 new customers before the next ANALYZE.
    await database.exec("delete from tickets");
    await database.exec("delete from contacts");
    await addContacts(6_000, 300);
    await database.exec("analyze contacts, tickets");
    await addContacts(6_300, 8_000);
    await expectIndexPlans("silva");
    await expectIndexPlans("5500000004");
    // And once analyzed again.
    await database.exec("analyze contacts, tickets");
    await expectIndexPlans("silva");
  });
});
