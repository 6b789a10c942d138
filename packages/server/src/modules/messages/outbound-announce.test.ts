import type { Connection, Ticket } from "@zapdesk/core";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen, type RecordingSocket } from "../../../test/sockets.js";

/**
 * Every message the server queues is announced once queued (an `appMessage` create), not only when
 * the outbox reports it sent: the farewell, the CSAT question and the protocol notice included.
 */
const FAREWELL = "Obrigado pelo contato!";
const QUESTION = "De 1 a 5, como foi o atendimento?";

let t: TestApp;
let admin: TestUser;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  // No outbox worker: a message announced here was announced when queued, not when sent.
  t = await createTestApp({ start: false });
  admin = await makeAdmin(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.close();
});

const put = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: `/api/tickets/${id}`, headers: admin.auth, payload });

async function openTicket(): Promise<Ticket> {
  const connection = (await makeSimulatorConnection(t, admin, { farewellMessage: FAREWELL })) as Connection;
  const rated = await t.app.inject({
    method: "PUT",
    url: `/api/whatsapp/${connection.id}`,
    headers: admin.auth,
    payload: { ratingMessage: QUESTION, ratingTimeoutMinutes: 60 },
  });
  expect(rated.statusCode, rated.body).toBe(200);
  const from = customerNumber();
  await customerWrites(t, admin, connection.id, { from, body: "preciso de ajuda" });
  const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
    (x) => x.contact.number === from,
  ) as Ticket;
  expect((await put(ticket.id, { status: "open", userId: admin.id })).statusCode).toBe(200);
  return ticket;
}

const created = (socket: RecordingSocket, ticketId: number) =>
  socket.received
    .filter((r) => r.event === "appMessage")
    .map((r) => r.payload as { action: string; message: { ticketId: number; body: string; fromMe: boolean; ack: number } })
    .filter((p) => p.action === "create" && p.message.ticketId === ticketId)
    .map((p) => p.message.body);

describe("queued messages are announced", () => {
  it("the farewell and the CSAT question, when a ticket is resolved", async () => {
    const ticket = await openTicket();
    const socket = await connectAs(url, admin, sockets);
    const closed = await put(ticket.id, { status: "closed", userId: admin.id });
    expect(closed.statusCode, closed.body).toBe(200);
    await eventually(() => expect(created(socket, ticket.id)).toEqual([FAREWELL, QUESTION]));
  });

  it("the protocol notice", async () => {
    const ticket = await openTicket();
    const socket = await connectAs(url, admin, sockets);
    const res = await t.app.inject({ method: "POST", url: `/api/tickets/${ticket.id}/protocol`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    const { protocol } = res.json() as { protocol: string };
    await eventually(() =>
      expect(created(socket, ticket.id)).toEqual([`Seu protocolo de atendimento é: nº ${protocol}`, FAREWELL, QUESTION]),
    );
  });
});
