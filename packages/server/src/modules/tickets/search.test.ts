import { randomBytes } from "node:crypto";
import { PAGE_SIZE } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  phoneReceived,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { type Database, openDatabase } from "../../db/client.js";
import { searchPage } from "./ticket-list.repo.js";

let t: TestApp;
let admin: TestUser;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  connectionId = (await makeSimulatorConnection(t, admin)).id;
});
afterAll(() => t.close());

/** A word no other test writes: letters only, so it is one search word. */
const uniqueWord = () => `zq${[...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join("")}`;

/** A customer writes these messages, in order, on a ticket of their own; its id and messages come back. */
async function conversation(bodies: string[], options: { connection?: number; name?: string } = {}) {
  const from = customerNumber();
  for (const body of bodies)
    await customerWrites(t, admin, options.connection ?? connectionId, { from, body, name: options.name });
  const { tickets } = await listTickets(t, admin, { showAll: "true", searchParam: from });
  const ticket = tickets.find((x) => x.contact.number === from)!;
  const { messages } = await ticketMessages(t, admin, ticket.id);
  return { ticket, from, messages };
}

const search = (searchParam: string, user = admin) => listTickets(t, user, { showAll: "true", searchParam });

describe("ticket search", () => {
  it("matches message words without accents or case, and points at the newest matching message", async () => {
    const tag = uniqueWord();
    const { ticket, messages } = await conversation([
      `Preciso de uma AÇÃO sobre o pedido ${tag}`,
      `Outra ação ${tag}, por favor`,
      "obrigado",
    ]);
    for (const query of ["acao", "Ação", "ACAO"]) {
      const { tickets } = await search(`${query} ${tag}`);
      expect(tickets.map((x) => x.id)).toEqual([ticket.id]);
      // The newest message with both words, not the newest message of the ticket.
      expect(tickets[0].matchedMessageId).toBe(messages[1].id);
    }
  });

  it("matches every word as a word prefix, in any order", async () => {
    const tag = uniqueWord();
    const both = await conversation([`Quero o reembolso do pedido ${tag}`]);
    await conversation([`Quero o pedido ${tag}`]);
    const { tickets } = await search(`${tag.slice(0, 6)} reemb`);
    expect(tickets.map((x) => x.id)).toEqual([both.ticket.id]);
    expect(tickets[0].matchedMessageId).toBe(both.messages[0].id);
    // A prefix of a word, not a piece from its middle.
    expect((await search(`${tag} embolso`)).count).toBe(0);
  });

  it("still finds contacts by part of their name or number, with no matched message", async () => {
    const tag = uniqueWord();
    const { ticket, from } = await conversation(["bom dia"], { name: `Maria ${tag}son` });
    for (const query of [tag.slice(2), from.slice(-8)]) {
      const { tickets } = await search(query);
      expect(tickets.map((x) => x.id)).toEqual([ticket.id]);
      expect(tickets[0].matchedMessageId).toBeNull();
    }
  });

  it("treats full-text operators as plain text", async () => {
    const tag = uniqueWord();
    const { ticket } = await conversation([`d'água & mais ${tag}`]);
    for (const query of ["a & | ! :*(", "!!!", "'", "\\", ":*", "<->", "(((", "a:* | b", "x' | 'y"]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/api/tickets",
        headers: admin.auth,
        query: { showAll: "true", searchParam: query },
      });
      // One character is not a search (issue 19): refused before it reaches the database.
      expect(res.statusCode, `${query}: ${res.body}`).toBe([...query].length < 2 ? 400 : 200);
    }
    expect((await search(`d’água ${tag}`)).tickets.map((x) => x.id)).toEqual([ticket.id]);
    expect((await search(`${tag} | zzzz`)).tickets.map((x) => x.id)).toEqual([]);
  });

  it("never finds a ticket of a queue the agent is not in", async () => {
    const mine = await makeQueue(t);
    const other = await makeQueue(t);
    const agent = await makeUser(t, { queueIds: [mine.id] });
    const otherConnection = await makeSimulatorConnection(t, admin, { queueIds: [other.id] });
    const mineConnection = await makeSimulatorConnection(t, admin, { queueIds: [mine.id] });
    const tag = uniqueWord();
    const hidden = await conversation([`segredo ${tag}`], { connection: otherConnection.id });
    const visible = await conversation([`segredo ${tag}`], { connection: mineConnection.id });
    expect(hidden.ticket.queueId).toBe(other.id);

    expect((await search(tag)).tickets.map((x) => x.id).sort()).toEqual([hidden.ticket.id, visible.ticket.id].sort());
    const found = await listTickets(t, agent, { searchParam: tag });
    expect(found.tickets.map((x) => x.id)).toEqual([visible.ticket.id]);
    expect(found.count).toBe(1);
  });

  it("pages through many matches in the list's order, with the exact count, under the other filters", async () => {
    const tag = uniqueWord();
    const created: number[] = [];
    for (let i = 0; i < PAGE_SIZE.tickets + 2; i++) created.push((await conversation([`pedido ${tag} ${i}`])).ticket.id);
    const newestFirst = [...created].reverse();

    const first = await search(tag);
    const second = await listTickets(t, admin, { showAll: "true", searchParam: tag, pageNumber: "2" });
    expect(first.count).toBe(created.length);
    expect(first.hasMore).toBe(true);
    expect([...first.tickets, ...second.tickets].map((x) => x.id)).toEqual(newestFirst);
    expect(second.hasMore).toBe(false);
    // A page past the end still counts every match.
    const past = await listTickets(t, admin, { showAll: "true", searchParam: tag, pageNumber: "3" });
    expect(past).toMatchObject({ tickets: [], count: created.length });

    const oldest = await listTickets(t, admin, { showAll: "true", searchParam: tag, sort: "oldest" });
    expect(oldest.tickets.map((x) => x.id)).toEqual(created.slice(0, PAGE_SIZE.tickets));
    const pending = await listTickets(t, admin, { showAll: "true", searchParam: tag, status: "pending" });
    expect(pending.count).toBe(created.length);
    const open = await listTickets(t, admin, { showAll: "true", searchParam: tag, status: "open" });
    expect(open).toMatchObject({ tickets: [], count: 0 });
  });

  it("carries no matchedMessageId outside a search", async () => {
    const { ticket } = await conversation(["sem busca"]);
    const { tickets } = await listTickets(t, admin, { showAll: "true" });
    expect(tickets.find((x) => x.id === ticket.id)).not.toHaveProperty("matchedMessageId");
  });

  it("matches what people wrote, never an automatic message, and still through the words' index (issue 20 §2.6)", async () => {
    const tag = uniqueWord();
    const sales = await makeQueue(t, { name: "Vendas", greetingMessage: `Vendas aqui, ${tag}-equipe!` });
    const support = await makeQueue(t, { name: "Suporte" });
    const menuConnection = await makeSimulatorConnection(t, admin, {
      queueIds: [sales.id, support.id],
      greetingMessage: `Bem-vindo ${tag}! Escolha:`,
    });
    const from = customerNumber();
    await customerWrites(t, admin, menuConnection.id, { from, body: "oi" });
    await customerWrites(t, admin, menuConnection.id, { from, body: "1" });
    await eventually(async () => expect(await phoneReceived(t, admin, menuConnection.id, from)).toHaveLength(2));
    // The menu and the queue's greeting carry the word: no ticket is found by them.
    expect((await search(tag)).count).toBe(0);

    // The customer writes it: found, and pointing at the customer's message.
    await customerWrites(t, admin, menuConnection.id, { from, body: `quero falar da ${tag}` });
    const { tickets } = await search(tag);
    expect(tickets).toHaveLength(1);
    const { messages } = await ticketMessages(t, admin, tickets[0].id);
    expect(messages.find((m) => m.id === tickets[0].matchedMessageId)).toMatchObject({ fromBot: false, fromMe: false });

    // The search page still finds its messages through the GIN index on the words.
    const plan = await withOneConnection(async (database) => {
      await database.exec("set enable_seqscan = off");
      const page = searchPage(
        database.db,
        { actor: { id: admin.id, admin: true, queueIds: [] }, showAll: true, search: tag },
        { limit: 40, offset: 0 },
      ).toSQL();
      const rows = await database.query<{ "QUERY PLAN": string }>(`explain ${page.sql}`, page.params);
      await database.exec("reset enable_seqscan");
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("messages_search_idx");
  });
});

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
