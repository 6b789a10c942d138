import type { Connection, Message, Ticket } from "@zapdesk/core";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Config } from "../../src/config.js";
import { contacts, inboundEvents, tickets } from "../../src/db/schema.js";
import { eventually } from "../conversation.js";
import { makeAdmin, type TestUser } from "../factories.js";
import { createTestApp, type TestApp } from "../harness.js";
import { fakeBaileys } from "./baileys-test-rig.js";
import type { FakeSocket } from "./fake-socket.js";

/**
 * A whole Zapdesk (HTTP, pipeline, outbox, session manager) whose QR connections run the real
 * Baileys adapter over FakeSockets. `echo` keeps Baileys' default of echoing our own sends as
 * "append" upserts, whatever the adapter configured, to prove the pipeline holds against it.
 */
export async function startBaileysApp(
  options: { echo?: boolean; database?: TestApp["database"]; mediaMaxBytes?: number; config?: Partial<Config> } = {},
) {
  const fake = fakeBaileys(options.echo ? { socketConfig: { emitOwnEvents: true } } : {});
  const t = await createTestApp({
    factories: { baileys: fake.factory },
    database: options.database,
    config: { ...options.config, ...(options.mediaMaxBytes ? { mediaMaxBytes: options.mediaMaxBytes } : {}) },
  });
  const admin = await makeAdmin(t);
  return { t, admin, ...fake, close: () => t.close() };
}

export type BaileysApp = Awaited<ReturnType<typeof startBaileysApp>>;

/** A QR connection created through the API, its socket opened by "WhatsApp". */
export async function makeBaileysConnection(app: BaileysApp, overrides: { farewellMessage?: string } = {}) {
  const before = app.sockets.length;
  const res = await app.t.app.inject({
    method: "POST",
    url: "/api/whatsapp",
    headers: app.admin.auth,
    payload: {
      name: `QR ${Math.random().toString(36).slice(2, 8)}`,
      provider: "baileys",
      queueIds: [],
      greetingMessage: "",
      farewellMessage: overrides.farewellMessage ?? "",
      isDefault: false,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const connection = res.json() as Connection;
  const socket = await eventually(() => {
    expect(app.sockets.length).toBeGreaterThan(before);
    return app.sockets.at(-1) as FakeSocket;
  });
  socket.open();
  await eventually(() => expect(app.t.sessions.isConnected(connection.id)).toBe(true));
  return { connection, socket };
}

/** The ticket of a contact on a connection, once the pipeline made it. */
export async function ticketOf(t: TestApp, whatsappId: number, number: string) {
  return eventually(async () => {
    const [row] = await t.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(contacts.number, number), eq(tickets.whatsappId, whatsappId)));
    expect(row).toBeDefined();
    return row.id;
  });
}

export async function getTicket(t: TestApp, user: TestUser, id: number): Promise<Ticket> {
  const res = await t.app.inject({ method: "GET", url: `/api/tickets/${id}`, headers: user.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Ticket;
}

export async function updateTicket(t: TestApp, user: TestUser, id: number, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: "PUT", url: `/api/tickets/${id}`, headers: user.auth, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Ticket;
}

export async function messagesOf(t: TestApp, user: TestUser, ticketId: number): Promise<Message[]> {
  const res = await t.app.inject({ method: "GET", url: `/api/messages/${ticketId}`, headers: user.auth });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { messages: Message[] }).messages;
}

export async function agentSends(t: TestApp, user: TestUser, ticketId: number, body: string) {
  const res = await t.app.inject({ method: "POST", url: `/api/messages/${ticketId}`, headers: user.auth, payload: { body } });
  expect(res.statusCode, res.body).toBe(201);
}

/** Every event the connection logged has been processed (the echo of a send included). */
export async function logSettled(t: TestApp, whatsappId: number, key: string) {
  await eventually(async () => {
    const [row] = await t.database.db
      .select({ status: inboundEvents.status })
      .from(inboundEvents)
      .where(and(eq(inboundEvents.whatsappId, whatsappId), eq(inboundEvents.eventKey, key)));
    expect(row?.status).toBe("done");
  });
}
