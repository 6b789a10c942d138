import type { Message } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  listTickets,
  makeSimulatorConnection,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { insertMessage } from "./messages.repo.js";

let t: TestApp;
let admin: TestUser;
let queueId: number;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  queueId = (await makeQueue(t)).id;
  connectionId = (await makeSimulatorConnection(t, admin, { queueIds: [queueId] })).id;
});
afterAll(() => t.close());

/** A ticket with its first message from the customer, then `extra` more, one second apart. */
async function longTicket(extra: number) {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "first" });
  const { tickets } = await listTickets(t, admin, { showAll: "true", searchParam: from });
  const ticket = tickets.find((x) => x.contact.number === from)!;
  const start = Date.now() + 60_000;
  for (let i = 1; i <= extra; i += 1) {
    // Two messages share each second: the id breaks the tie, as in the list.
    const createdAt = new Date(start + Math.floor(i / 2) * 1000);
    await insertMessage(t.database.db, { ticketId: ticket.id, body: `message ${i}`, fromMe: i % 3 === 0, createdAt });
  }
  return ticket;
}

async function around(user: TestUser, ticketId: number, messageId: number) {
  return t.app.inject({
    method: "GET",
    url: `/api/messages/${ticketId}`,
    headers: user.auth,
    query: { around: String(messageId) },
  });
}

const ids = (messages: Message[]) => messages.map((m) => m.id);

describe("GET /api/messages/:ticketId?around=", () => {
  it("answers the page holding the message, with flags for older and newer pages", async () => {
    // 46 messages: pages of 20, 20 and 6.
    const ticket = await longTicket(45);
    const pages = [1, 2, 3].map((n) => ticketMessages(t, admin, ticket.id, n));
    const [newest, middle, oldest] = await Promise.all(pages);
    expect(oldest.messages).toHaveLength(6);
    expect(oldest.messages[0].body).toBe("first");

    const cases = [
      { target: newest.messages.at(-1)!, page: newest, pageNumber: 1, hasMore: true, hasNewer: false },
      { target: newest.messages[0], page: newest, pageNumber: 1, hasMore: true, hasNewer: false },
      { target: middle.messages[7], page: middle, pageNumber: 2, hasMore: true, hasNewer: true },
      { target: middle.messages.at(-1)!, page: middle, pageNumber: 2, hasMore: true, hasNewer: true },
      { target: oldest.messages[0], page: oldest, pageNumber: 3, hasMore: false, hasNewer: true },
      { target: oldest.messages.at(-1)!, page: oldest, pageNumber: 3, hasMore: false, hasNewer: true },
    ];
    for (const { target, page, pageNumber, hasMore, hasNewer } of cases) {
      const res = await around(admin, ticket.id, target.id);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(ids(body.messages), target.body).toEqual(ids(page.messages));
      expect(ids(body.messages)).toContain(target.id);
      expect(body).toMatchObject({ count: 46, pageNumber, hasMore, hasNewer, ticket: { id: ticket.id } });
    }
  });

  it("tells the normal pages where they are too", async () => {
    const ticket = await longTicket(25);
    expect(await ticketMessages(t, admin, ticket.id, 1)).toMatchObject({ pageNumber: 1, hasMore: true, hasNewer: false });
    expect(await ticketMessages(t, admin, ticket.id, 2)).toMatchObject({ pageNumber: 2, hasMore: false, hasNewer: true });
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const list = doc.paths["/api/messages/{ticketId}"].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toContain("around");
    const page = list.responses["200"].content["application/json"].schema.properties;
    expect(Object.keys(page)).toEqual(expect.arrayContaining(["hasMore", "hasNewer", "pageNumber"]));
    const tickets = doc.paths["/api/tickets"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(tickets.properties.tickets.items.properties)).toContain("matchedMessageId");
  });

  it("is 404 for a message of another ticket or another queue's ticket, 400 for a bad id", async () => {
    const ticket = await longTicket(1);
    const other = await longTicket(1);
    const otherMessage = (await ticketMessages(t, admin, other.id)).messages[0];
    const foreign = await around(admin, ticket.id, otherMessage.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe("ERR_NO_MESSAGE_FOUND");
    expect((await around(admin, ticket.id, 2_000_000_000)).json().error).toBe("ERR_NO_MESSAGE_FOUND");

    const outsider = await makeUser(t, { queueIds: [(await makeQueue(t)).id] });
    const own = (await ticketMessages(t, admin, ticket.id)).messages[0];
    const hidden = await around(outsider, ticket.id, own.id);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error).toBe("ERR_NO_TICKET_FOUND");

    const bad = await t.app.inject({
      method: "GET",
      url: `/api/messages/${ticket.id}?around=abc`,
      headers: admin.auth,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("ERR_VALIDATION");
  });
});
