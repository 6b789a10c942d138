import type { Schedule, Ticket } from "@zapdesk/core";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { connectAs, flush, listen, type RecordingSocket } from "../../../test/sockets.js";

// Issue 11 item 5: `schedule` events reach those who may see the ticket (or, without one, the author and admins).
const clock = manualClock(new Date(Date.now() + 60 * 60 * 1000));
const HOUR = 60 * 60 * 1000;
let t: TestApp;
let admin: TestUser;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 30 * 24 * 3600 });
  admin = await makeAdmin(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

const scheduleEvents = (socket: RecordingSocket, id: number) =>
  socket.received
    .filter((r) => r.event === "schedule")
    .map((r) => r.payload as { action: string; schedule: Schedule })
    .filter((p) => p.schedule.id === id)
    .map((p) => `${p.action}:${p.schedule.status}`);

describe("schedule events", () => {
  it("follow the ticket's scope, from creation to sent", async () => {
    const sales = await makeQueue(t);
    const support = await makeQueue(t);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [sales.id] });
    const author = await makeUser(t, { queueIds: [sales.id] });
    const colleague = await makeUser(t, { queueIds: [sales.id] });
    const outsider = await makeUser(t, { queueIds: [support.id] });
    const sockets = await Promise.all([author, colleague, outsider, admin].map((u) => connectAs(url, u, opened)));
    const [authorSocket, colleagueSocket, outsiderSocket, adminSocket] = sockets;

    const customer = customerNumber();
    await customerWrites(t, admin, connection.id, { from: customer, body: "hi" });
    const list = await t.app.inject({
      method: "GET",
      url: `/api/tickets?showAll=true&searchParam=${customer}`,
      headers: admin.auth,
    });
    const ticket = (list.json() as { tickets: Ticket[] }).tickets[0];
    expect(ticket.queueId).toBe(sales.id);

    const res = await t.app.inject({
      method: "POST",
      url: "/api/schedules",
      headers: author.auth,
      payload: { ticketId: ticket.id, body: "Later", sendAt: new Date(clock.now().getTime() + HOUR).toISOString() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json() as Schedule;
    clock.advance(HOUR + 1000);
    await t.services.schedules.sweep();
    await eventually(() => expect(scheduleEvents(colleagueSocket, id)).toContain("update:sent"));
    await flush(t, admin, sockets);
    for (const socket of [authorSocket, colleagueSocket, adminSocket]) {
      expect(scheduleEvents(socket, id)[0]).toBe("create:scheduled");
      expect(scheduleEvents(socket, id)).toContain("update:sent");
    }
    expect(scheduleEvents(outsiderSocket, id)).toEqual([]);
  });

  it("without a ticket: only the author and the admins hear about it", async () => {
    const author = await makeUser(t);
    const other = await makeUser(t);
    const sockets = await Promise.all([author, other, admin].map((u) => connectAs(url, u, opened)));
    const contact = await makeContact(t);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/schedules",
      headers: author.auth,
      payload: { contactId: contact.id, body: "Hello", sendAt: new Date(clock.now().getTime() + HOUR).toISOString() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json() as Schedule;
    await t.app.inject({ method: "DELETE", url: `/api/schedules/${id}`, headers: author.auth });
    await flush(t, admin, sockets);
    expect(scheduleEvents(sockets[0], id)).toEqual(["create:scheduled", "update:cancelled"]);
    expect(scheduleEvents(sockets[2], id)).toEqual(["create:scheduled", "update:cancelled"]);
    expect(scheduleEvents(sockets[1], id)).toEqual([]);
  });
});
