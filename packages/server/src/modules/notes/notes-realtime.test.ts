import type { Message } from "@zapdesk/core";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, flush, listen, type RecordingSocket } from "../../../test/sockets.js";

let t: TestApp;
let url: string;
let admin: TestUser;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t);
  admin = await makeAdmin(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

const of = (socket: RecordingSocket, event: string) =>
  socket.received.filter((r) => r.event === event).map((r) => r.payload as Record<string, unknown>);

describe("notes in realtime", () => {
  it("reach those who may see the ticket as appMessage; a mention reaches the mentioned colleague alone", async () => {
    const queue = await makeQueue(t);
    const author = await makeUser(t, { queueIds: [queue.id] });
    const mentioned = await makeUser(t, { queueIds: [queue.id] });
    const bystander = await makeUser(t, { queueIds: [queue.id] });
    const outsider = await makeUser(t);
    const connection = await makeSimulatorConnection(t, admin, { isDefault: true });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "help please" });
    const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
      (x) => x.contact.number === from,
    )!;
    const moved = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: admin.auth,
      payload: { queueId: queue.id, status: "pending" },
    });
    expect(moved.statusCode, moved.body).toBe(200);

    const sockets = {
      author: await connectAs(url, author, opened),
      mentioned: await connectAs(url, mentioned, opened),
      bystander: await connectAs(url, bystander, opened),
      outsider: await connectAs(url, outsider, opened),
    };
    const res = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: author.auth,
      payload: { body: "please look at this one", isNote: true, mentions: [mentioned.id] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const note = res.json() as Message;
    await eventually(() => expect(of(sockets.mentioned, "noteMention")).toHaveLength(1));
    await flush(t, admin, Object.values(sockets));

    const created = (socket: RecordingSocket) =>
      of(socket, "appMessage").filter((p) => (p.message as Message | undefined)?.id === note.id);
    for (const socket of [sockets.author, sockets.mentioned, sockets.bystander]) {
      expect(created(socket)).toEqual([
        expect.objectContaining({ action: "create", message: expect.objectContaining({ isNote: true }) }),
      ]);
    }
    expect(created(sockets.outsider)).toEqual([]);

    expect(of(sockets.mentioned, "noteMention")[0]).toMatchObject({
      action: "create",
      mention: { userId: mentioned.id, messageId: note.id, ticketId: ticket.id, author: { id: author.id }, read: false },
    });
    for (const socket of [sockets.author, sockets.bystander, sockets.outsider]) expect(of(socket, "noteMention")).toEqual([]);
    // The note moved nothing: no ticket update went out for it.
    expect(of(sockets.bystander, "ticket").filter((p) => (p.ticket as { id?: number } | undefined)?.id === ticket.id)).toEqual(
      [],
    );
  });
});
