import type { Ticket } from "@zapdesk/core";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen, type RecordingSocket } from "../../../test/sockets.js";

let t: TestApp;
let admin: TestUser;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

describe("CSAT realtime", () => {
  it("the answer is published with its closed ticket, now carrying the rating", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    await t.app.inject({
      method: "PUT",
      url: `/api/whatsapp/${connection.id}`,
      headers: admin.auth,
      payload: { ratingMessage: "Nota de 1 a 5?" },
    });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "oi" });
    const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
      (x) => x.contact.number === from,
    ) as Ticket;
    const put = (payload: object) =>
      t.app.inject({ method: "PUT", url: `/api/tickets/${ticket.id}`, headers: admin.auth, payload });
    await put({ status: "open", userId: admin.id });
    await put({ status: "closed", userId: admin.id });

    const socket: RecordingSocket = await connectAs(url, admin, opened);
    await customerWrites(t, admin, connection.id, { from, body: "4" });
    await eventually(() => {
      const updates = socket.received
        .filter((r) => r.event === "ticket")
        .map((r) => r.payload as { action: string; ticket?: Ticket })
        .filter((p) => p.action === "update" && p.ticket?.id === ticket.id);
      expect(updates.at(-1)?.ticket).toMatchObject({ status: "closed", rating: 4 });
      const created = socket.received
        .filter((r) => r.event === "appMessage")
        .map((r) => r.payload as { action: string; message: { body: string; ticketId: number } })
        .find((p) => p.action === "create" && p.message.ticketId === ticket.id);
      expect(created?.message.body).toBe("4");
    });
  });
});
