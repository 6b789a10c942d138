import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection, ticketMessages } from "../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/harness.js";
import { listContacts } from "../modules/contacts/contacts.repo.js";
import { ticketMessagesRead } from "../modules/messages/messages.repo.js";
import { listTickets as listTicketRows } from "../modules/tickets/ticket-list.repo.js";
import { findAuthUser } from "../modules/users/users.repo.js";
import { openDatabase } from "./client.js";
import { preparedCount, runRead } from "./prepared.js";

// Issue 10 item 3: the hot reads run prepared statements, built once per database handle.
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

describe("prepared hot paths", () => {
  it("answer every inbox filter, the chat page, contact search and the signed-in user from statements built once", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    for (const body of ["one", "two", "three"])
      await customerWrites(t, admin, connection.id, { from, name: "Prepared Pat", body });
    const today = new Date().toISOString().slice(0, 10);
    const queries: Record<string, string>[] = [
      { status: "pending" },
      { status: "pending", queueIds: JSON.stringify([queue.id]) },
      { status: "pending", queueIds: "[]" },
      { status: "pending", date: today },
      { date: "2001-01-01" },
      // A search by message words, by the contact's name, and with a filter.
      { searchParam: "two" },
      { searchParam: "prepared" },
      { searchParam: "two", status: "closed" },
    ];
    // Before anyone opens the chat (which reads it).
    const unread = await listTickets(t, agent, { status: "pending", withUnreadMessages: "true", date: today });
    expect(unread.tickets.map((x) => x.contact.number)).toContain(from);
    const round = async () => {
      const lists = [];
      for (const query of queries) lists.push((await listTickets(t, agent, query)).tickets.map((x) => x.contact.number));
      const ticket = (await listTickets(t, agent, { status: "pending" })).tickets.find((x) => x.contact.number === from)!;
      const chat = await ticketMessages(t, agent, ticket.id);
      const contacts = await t.app.inject({
        method: "GET",
        url: "/api/contacts",
        query: { searchParam: "prepared pat" },
        headers: agent.auth,
      });
      return { lists, chat: chat.messages.map((m) => m.body), count: chat.count, contacts: contacts.json().contacts.length };
    };
    const first = await round();
    expect(first.lists.map((list) => list.includes(from))).toEqual([true, true, false, true, false, true, true, false]);
    expect(first.chat).toEqual(["one", "two", "three"]);
    expect(first.count).toBe(3);
    expect(first.contacts).toBe(1);
    // Searches run on the heavy-read pool's handle (issue 19): its statements are its own.
    const built = () => preparedCount(t.database.db) + preparedCount(t.database.heavy);
    const statements = built();
    // Six inbox shapes, two search shapes, the chat page, contact search and the user lookup at least.
    expect(statements).toBeGreaterThanOrEqual(10);
    expect(await round()).toEqual(first);
    expect(built()).toBe(statements);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "prepares them by name on each PostgreSQL connection (TEST_DATABASE_URL)",
    async () => {
      const url = (t.database as { url?: string }).url!;
      const single = await openDatabase({ url, poolSize: 1 });
      try {
        const actor = { id: admin.id, admin: true, queueIds: [] };
        await findAuthUser(single.db, admin.id);
        await listTicketRows(single.db, { actor, showAll: true, status: "pending" }, { limit: 40, offset: 0 });
        await runRead(ticketMessagesRead(single.db, 1, { limit: 20, offset: 0 }, actor));
        await listContacts(single.db, { search: "pat", limit: 20, offset: 0 });
        await listTicketRows(single.db, { actor, showAll: true, search: "pat" }, { limit: 40, offset: 0 });
        const rows = await single.query<{ name: string }>("select name from pg_prepared_statements order by name");
        expect(rows.map((r) => r.name)).toEqual(
          expect.arrayContaining([
            "users_auth",
            "tickets_inbox_ast",
            "tickets_inbox_ast_count",
            "messages_page",
            "contacts_search_one",
            "tickets_search_as",
          ]),
        );
      } finally {
        await single.close();
      }
    },
  );
});
