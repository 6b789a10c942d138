import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  listTickets,
  makeSimulatorConnection,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeTag, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { countStatements, statementsInARow, statementsOf } from "../../../test/statements.js";
import { type Read, sentOf } from "../../db/prepared.js";
import { ticketExtraInfoRead } from "../contacts/contacts.repo.js";
import { newerMessagesRead, ticketMessagesRead } from "./messages.repo.js";

// Issue 24: opening a chat (its newest page, the ticket and the count) is two statements once the
// signed-in user is known (item 5: its lookup is kept until the database says it changed,
// session-users.ts), sent in one round trip (item 2, db/prepared.ts `readTogether`). This test pins
// both so they cannot creep back.
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  countStatements();
});
afterAll(() => t.close());

const tag = (name: string) => makeTag(t, admin, name);

/** An agent of one queue, and a ticket of another queue's connection the agent may not reach. */
async function ticketOutOfReach() {
  const [mine, theirs] = [await makeQueue(t), await makeQueue(t)];
  const agent = await makeUser(t, { queueIds: [mine.id] });
  const connection = await makeSimulatorConnection(t, admin, { queueIds: [theirs.id] });
  const from = customerNumber();
  await customerWrites(t, admin, connection.id, { from, body: "not for you" });
  const ticket = (await listTickets(t, admin, { status: "pending", showAll: "true" })).tickets.find(
    (x) => x.contact.number === from,
  )!;
  expect(ticket.queueId).toBe(theirs.id);
  return { mine, theirs, agent, ticket, from };
}

interface PlanNode {
  "Relation Name"?: string;
  "Actual Loops": number;
  "Actual Rows": number;
  Plans?: PlanNode[];
}

/** Each node of the read's plan that reads `table`: how many times it ran, and the rows it found (EXPLAIN ANALYZE). */
async function readsOf(read: Read<unknown>, table: string): Promise<{ loops: number; rows: number }[]> {
  const { text, values } = sentOf(read);
  const [row] = await t.database.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (analyze, format json) ${text}`, values);
  const nodes: { loops: number; rows: number }[] = [];
  const walk = (node: PlanNode) => {
    if (node["Relation Name"] === table) nodes.push({ loops: node["Actual Loops"], rows: node["Actual Rows"] });
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(row!["QUERY PLAN"][0].Plan);
  return nodes;
}
const messageReadsOf = async (read: Read<unknown>) => (await readsOf(read, "messages")).map((node) => node.loops);

describe("opening a chat", () => {
  it("is two statements: the ticket with its tags, the page with its count (the user is known)", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    for (let i = 1; i <= 23; i++) await customerWrites(t, admin, connection.id, { from, body: `message ${i}` });
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

    await ticketMessages(t, agent, ticket.id); // the statements are prepared, and the user kept, on first use
    const first = await statementsOf(() => ticketMessages(t, agent, ticket.id));
    expect(first.statements).toEqual(["ticket_presentable", "messages_page_reader"]);
    // One round trip once both are parsed on the pooled connection it gets (statementsInARow).
    const tries = [first, ...(await statementsInARow(() => ticketMessages(t, agent, ticket.id), 4))];
    expect(tries.map((x) => x.roundTrips)).toContain(1);
    for (const x of tries) expect(x.roundTrips).toBeLessThanOrEqual(2);
    expect(first.result.count).toBe(23);
    expect(first.result.hasMore).toBe(true);
    expect(first.result.messages.map((m) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `message ${i + 4}`));
    // The ticket is the one GET /api/tickets/:id presents, tags in the list's order (that GET also
    // marks the messages read, which reading the page does not, and adds the contact's extra info).
    const alone = (await t.app.inject({ method: "GET", url: `/api/tickets/${ticket.id}`, headers: agent.auth })).json();
    delete alone.contact.extraInfo;
    expect(first.result.ticket.unreadMessages).toBe(23);
    expect({ ...first.result.ticket, unreadMessages: 0 }).toEqual(alone);
    expect(first.result.ticket.tags.map((x) => x.id)).toEqual([alpha.id, zeta.id]);

    const last = await statementsOf(() => ticketMessages(t, agent, ticket.id, 2));
    expect(last.statements).toEqual(["ticket_presentable", "messages_page_reader"]);
    expect(last.result).toMatchObject({ count: 23, hasMore: false });
    expect(last.result.messages.map((m) => m.body)).toEqual(["message 1", "message 2", "message 3"]);
    // Opened on a message (a search's result): the ticket and the message's place, then its page.
    const target = first.result.messages[0]!;
    const around = await statementsOf(async () => {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/messages/${ticket.id}`,
        headers: agent.auth,
        query: { pageNumber: "1", around: String(target.id) },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { messages: { id: number }[]; pageNumber: number };
    });
    expect(around.statements).toEqual(["ticket_presentable", "messages_newer_reader", "messages_page_reader"]);
    expect(around.result.pageNumber).toBe(1);
    expect(around.result.messages.map((m) => m.id)).toContain(target.id);
    // A page past the end has no row to carry the count: it asks for it.
    const past = await ticketMessages(t, agent, ticket.id, 3);
    expect(past).toMatchObject({ messages: [], count: 23, hasMore: false });
  });

  it("refuses a ticket the agent may not reach with the same answer as a missing one, and reads no message", async () => {
    const { mine, theirs, agent, ticket } = await ticketOutOfReach();
    const { result, statements } = await statementsOf(() =>
      t.app.inject({ method: "GET", url: `/api/messages/${ticket.id}`, headers: agent.auth }),
    );
    expect(result.statusCode).toBe(404);
    expect(result.json().error).toBe("ERR_NO_TICKET_FOUND");
    // The page rides with the ticket, but in its statement for agents, which reads no message of a
    // ticket out of the agent's reach: the plan's nodes on messages never run.
    expect(statements).toContain("messages_page_reader");
    expect(statements).not.toContain("messages_page");
    const reader = { id: agent.id, admin: false, queueIds: [mine.id] };
    const denied = await messageReadsOf(ticketMessagesRead(t.database.db, ticket.id, { limit: 20, offset: 0 }, reader));
    expect(denied.length).toBeGreaterThan(0);
    expect(denied.every((loops) => loops === 0)).toBe(true);
    // Where the agent may reach it, the same statement reads the page and counts (the test can fail).
    const member = { ...reader, queueIds: [mine.id, theirs.id] };
    const reached = await messageReadsOf(ticketMessagesRead(t.database.db, ticket.id, { limit: 20, offset: 0 }, member));
    expect(reached.some((loops) => loops > 0)).toBe(true);
    // Opened on one of its messages: the same answer, and the message's place is not counted.
    const [message] = (await ticketMessages(t, admin, ticket.id)).messages;
    const onMessage = await t.app.inject({
      method: "GET",
      url: `/api/messages/${ticket.id}`,
      headers: agent.auth,
      query: { pageNumber: "1", around: String(message!.id) },
    });
    expect(onMessage.statusCode).toBe(404);
    expect(onMessage.json().error).toBe("ERR_NO_TICKET_FOUND");
    expect(await messageReadsOf(newerMessagesRead(t.database.db, ticket.id, message!.id, reader))).toEqual([0, 0]);
    expect(
      (await messageReadsOf(newerMessagesRead(t.database.db, ticket.id, message!.id, member))).some((loops) => loops > 0),
    ).toBe(true);
    const missing = await t.app.inject({ method: "GET", url: "/api/messages/999999999", headers: agent.auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("ERR_NO_TICKET_FOUND");
  });
});

// The chat pane reads the ticket's own GET beside the page: its extra info, and it marks it read.
describe("a ticket's GET", () => {
  it("is the ticket and its contact's extra info in one round trip, then marking it read when it has unread messages", async () => {
    const queue = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [queue.id] });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "first" });
    const ticket = (await listTickets(t, agent, { status: "pending" })).tickets.find((x) => x.contact.number === from)!;
    const extraInfo = [
      { name: "CPF", value: "123" },
      { name: "Plano", value: "ouro" },
    ];
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/contacts/${ticket.contact.id}`,
      headers: admin.auth,
      payload: { name: ticket.contact.name, number: from, extraInfo },
    });
    expect(put.statusCode, put.body).toBe(200);
    const open = () => t.app.inject({ method: "GET", url: `/api/tickets/${ticket.id}`, headers: agent.auth });

    const first = await statementsOf(open);
    expect(first.result.statusCode, first.result.body).toBe(200);
    expect(first.result.json()).toMatchObject({ id: ticket.id, unreadMessages: 0, contact: { extraInfo } });
    // Marking the unread message read: the ticket's update and the messages' in a transaction after the reads.
    expect(first.statements.slice(0, 2)).toEqual(["ticket_presentable", "ticket_extra_info_reader"]);
    expect(first.statements.slice(2)).toContain("commit");
    expect((await ticketMessages(t, agent, ticket.id)).ticket.unreadMessages).toBe(0);

    const tries = await statementsInARow(open);
    for (const x of tries) {
      expect(x.statements).toEqual(["ticket_presentable", "ticket_extra_info_reader"]);
      expect(x.result.json()).toMatchObject({ id: ticket.id, unreadMessages: 0, contact: { extraInfo } });
    }
    expect(tries.map((x) => x.roundTrips)).toContain(1);
    for (const x of tries) expect(x.roundTrips).toBeLessThanOrEqual(2);
  });

  it("reads no extra info of a ticket the agent may not reach, and answers as for a missing one", async () => {
    const { mine, theirs, agent, ticket, from } = await ticketOutOfReach();
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/contacts/${ticket.contact.id}`,
      headers: admin.auth,
      payload: { name: ticket.contact.name, number: from, extraInfo: [{ name: "CPF", value: "secret" }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const denied = await t.app.inject({ method: "GET", url: `/api/tickets/${ticket.id}`, headers: agent.auth });
    expect(denied.statusCode).toBe(404);
    expect(denied.json().error).toBe("ERR_NO_TICKET_FOUND");
    // Nothing marked read for them either.
    expect((await ticketMessages(t, admin, ticket.id)).ticket.unreadMessages).toBe(1);

    // The extra info's scan looks for the contact of a ticket in reach: none, so it finds no row.
    const reader = { id: agent.id, admin: false, queueIds: [mine.id] };
    const unreached = await readsOf(ticketExtraInfoRead(t.database.db, ticket.id, reader), "contact_extra_info");
    expect(unreached.map((node) => node.rows)).toEqual([0]);
    const member = { ...reader, queueIds: [mine.id, theirs.id] };
    const reached = await readsOf(ticketExtraInfoRead(t.database.db, ticket.id, member), "contact_extra_info");
    expect(reached.map((node) => node.rows)).toEqual([1]);
  });
});
