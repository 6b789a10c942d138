import { PAGE_SIZE } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTickets } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { SEARCH_COUNT_CAP } from "./search-count.js";

// Issue 24 item 4: a search counts up to a cap and says so; the pages still go to the end of the list.
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ start: false });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

/** `count` contacts whose name holds `word` (numbers 55 `prefix` …), each with a closed ticket. */
async function matches(word: string, count: number, prefix: number) {
  await t.database.exec(`
    with made as (
      insert into contacts (name, number)
      select 'Cliente ${word} ' || i, '55${prefix}' || lpad(i::text, 8, '0') from generate_series(1, ${count}) i
      returning id, name)
    insert into tickets (status, contact_id, updated_at)
    select 'closed', id, now() - (split_part(name, ' ', 3)::int * interval '1 second') from made`);
}

const search = (searchParam: string, pageNumber = 1) =>
  listTickets(t, admin, { showAll: "true", searchParam, pageNumber: String(pageNumber) });

describe("search count cap", () => {
  it("stops counting at the cap, flags it, and pages until the list ends", async () => {
    const total = SEARCH_COUNT_CAP + 50;
    await matches("capword", total, 91);
    const first = await search("capword");
    expect(first).toMatchObject({ count: SEARCH_COUNT_CAP, countCapped: true, hasMore: true });
    expect(first.tickets).toHaveLength(PAGE_SIZE.tickets);

    const seen = new Set<number>();
    let page = 1;
    let last = first;
    for (;;) {
      for (const ticket of last.tickets) seen.add(ticket.id);
      if (!last.hasMore) break;
      last = await search("capword", ++page);
      // Whatever the page, the count is either exact or says it stopped before the end.
      if (last.countCapped) expect(last.count).toBeGreaterThanOrEqual(page * PAGE_SIZE.tickets);
    }
    expect(seen.size).toBe(total);
    expect(page).toBe(Math.ceil(total / PAGE_SIZE.tickets));
    // The last page knows the exact count.
    expect(last).toMatchObject({ count: total, countCapped: false, hasMore: false });
    // Past the end: no rows, and a count that still stops at the cap.
    expect(await search("capword", page + 30)).toMatchObject({ tickets: [], count: total, countCapped: false, hasMore: false });
    expect(await search("capword", page + 1)).toMatchObject({ tickets: [] });
  });

  it("caps the contact search's count the same way", async () => {
    await matches("ctword", SEARCH_COUNT_CAP + 5, 93);
    const contacts = async (searchParam: string, pageNumber = 1) => {
      const res = await t.app.inject({
        method: "GET",
        url: "/api/contacts",
        headers: admin.auth,
        query: { searchParam, pageNumber: String(pageNumber) },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { contacts: unknown[]; count: number; hasMore: boolean; countCapped?: boolean };
    };
    expect(await contacts("ctword")).toMatchObject({ count: SEARCH_COUNT_CAP, countCapped: true, hasMore: true });
    const lastPage = Math.ceil((SEARCH_COUNT_CAP + 5) / PAGE_SIZE.contacts);
    const last = await contacts("ctword", lastPage);
    expect(last).toMatchObject({ count: SEARCH_COUNT_CAP + 5, countCapped: false, hasMore: false });
    expect(last.contacts.length).toBe(SEARCH_COUNT_CAP + 5 - (lastPage - 1) * PAGE_SIZE.contacts);
    expect(await contacts("Cliente fewword")).toMatchObject({ countCapped: false });
  });

  it("counts exactly below the cap, with the flag down", async () => {
    await matches("fewword", 3, 92);
    expect(await search("fewword")).toMatchObject({ count: 3, countCapped: false, hasMore: false });
  });
});
