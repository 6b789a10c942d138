import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeTag, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { countStatements, statementsInARow, statementsOf } from "../../../test/statements.js";

// Issue 24 item 5: the inbox's statements are prepared and few. The page (its tickets' tags a column
// of its rows) and the count go together in one round trip (db/prepared.ts `readTogether`); an
// agent's read the greeting menu's setting themselves (tickets/access.ts). A search brings its
// page's tags with its rows too. This test pins them so they cannot creep back.
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  countStatements();
});
afterAll(() => t.close());

const tag = (name: string) => makeTag(t, admin, name);
const fiveLists = (user: TestUser, query: Record<string, string>) => statementsInARow(() => listTickets(t, user, query));

describe("the inbox", () => {
  it("is the page with its tags and the count in one round trip, all prepared", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "olá, preciso de ajuda com o pedido" });
    const ticket = (await listTickets(t, agent, { status: "pending" })).tickets.find((x) => x.contact.number === from)!;
    const suffix = Math.random().toString(36).slice(2, 8);
    const [zeta, alpha] = [await tag(`zeta ${suffix}`), await tag(`Alpha ${suffix}`)];
    const tagged = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: agent.auth,
      payload: { tagIds: [zeta.id, alpha.id] },
    });
    expect(tagged.statusCode, tagged.body).toBe(200);

    const agentLists = await fiveLists(agent, { status: "pending" });
    for (const { statements, result } of agentLists) {
      expect(statements).toEqual(["tickets_inbox_usbt", "tickets_inbox_usbt_count"]);
      // The tags come with the page's rows, in the order the ticket's own GET gives them.
      expect(result.tickets.find((x) => x.id === ticket.id)?.tags.map((x) => x.id)).toEqual([alpha.id, zeta.id]);
      expect(result.count).toBeGreaterThanOrEqual(1);
    }
    // The page and the count ride together once both are parsed on the pooled connection the list gets.
    expect(agentLists.map((x) => x.roundTrips)).toContain(1);
    for (const { roundTrips } of agentLists) expect(roundTrips).toBeLessThanOrEqual(2);

    const adminLists = await fiveLists(admin, { status: "pending", showAll: "true" });
    for (const { statements } of adminLists) expect(statements).toEqual(["tickets_inbox_ast", "tickets_inbox_ast_count"]);
    expect(adminLists.map((x) => x.roundTrips)).toContain(1);

    // A search's page brings its tags too: no statement of its own for them. (The first search reads
    // the words' statistics, kept for ten minutes, search-breadth.ts.)
    await listTickets(t, agent, { searchParam: "pedido" });
    const searched = await statementsOf(() => listTickets(t, agent, { searchParam: "pedido" }));
    expect(searched.statements).toEqual(["tickets_search_us"]);
    expect(searched.result.tickets.find((x) => x.id === ticket.id)?.tags.map((x) => x.id)).toEqual([alpha.id, zeta.id]);
  });
});
