import type { Connection, Message, SimulatorOutboundMessage, Ticket } from "@zapdesk/core";
import { and, asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { contacts, messages, tickets } from "../src/db/schema.js";
import type { TestUser } from "./factories.js";
import type { TestApp } from "./harness.js";

/** How long to wait for a queue's bot (issue 23 §4): a worker poll, an HTTP round trip and the outbox. */
export const BOT_WAIT = 20_000;

/** Poll until `check` stops throwing (async work: sessions, outbox). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** A simulator connection created through the API, waited on until CONNECTED. */
export async function makeSimulatorConnection(
  t: TestApp,
  admin: TestUser,
  overrides: { name?: string; queueIds?: number[]; greetingMessage?: string; farewellMessage?: string; isDefault?: boolean } = {},
): Promise<Connection> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/whatsapp",
    headers: admin.auth,
    payload: {
      name: overrides.name ?? `Sim ${Math.random().toString(36).slice(2, 8)}`,
      provider: "simulator",
      queueIds: overrides.queueIds ?? [],
      greetingMessage: overrides.greetingMessage ?? "",
      farewellMessage: overrides.farewellMessage ?? "",
      isDefault: overrides.isDefault ?? false,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const created = res.json() as Connection;
  return eventually(async () => {
    const current = await t.app.inject({ method: "GET", url: `/api/whatsapp/${created.id}`, headers: admin.auth });
    const connection = current.json() as Connection;
    expect(connection.status).toBe("CONNECTED");
    return connection;
  });
}

export async function customerWrites(
  t: TestApp,
  admin: TestUser,
  whatsappId: number,
  input: { from: string; body?: string; name?: string; id?: string; [key: string]: unknown },
): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/simulator/${whatsappId}/inbound`,
    headers: admin.auth,
    payload: input,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }).id;
}

export async function listTickets(t: TestApp, user: TestUser, query: Record<string, string> = {}) {
  const res = await t.app.inject({ method: "GET", url: "/api/tickets", headers: user.auth, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { tickets: Ticket[]; count: number; hasMore: boolean; countCapped?: boolean };
}

export async function ticketMessages(t: TestApp, user: TestUser, ticketId: number, pageNumber = 1) {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/messages/${ticketId}`,
    headers: user.auth,
    query: { pageNumber: String(pageNumber) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { messages: Message[]; ticket: Ticket; count: number; hasMore: boolean };
}

export async function phoneReceived(t: TestApp, admin: TestUser, whatsappId: number, to: string) {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/simulator/${whatsappId}/outbound`,
    headers: admin.auth,
    query: { to },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { messages: SimulatorOutboundMessage[] }).messages;
}

let counter = 0;
/** A fresh customer number per call: tests never share a contact by accident. */
export function customerNumber(): string {
  counter += 1;
  return `5511${String(process.pid).padStart(5, "0").slice(-5)}${String(counter).padStart(4, "0")}`;
}

/** The ticket row of the customer with this number (tests that ask have one ticket per customer). */
export async function ticketRowOf(t: TestApp, number: string) {
  const [row] = await t.database.db
    .select({ ticket: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(eq(contacts.number, number));
  return row?.ticket;
}

/** The automatic (bot, menu, greeting) messages stored on a ticket, oldest first. */
export async function botBodies(t: TestApp, ticketId: number): Promise<string[]> {
  const rows = await t.database.db
    .select({ body: messages.body })
    .from(messages)
    .where(and(eq(messages.ticketId, ticketId), eq(messages.fromBot, true)))
    .orderBy(asc(messages.id));
  return rows.map((r) => r.body);
}
